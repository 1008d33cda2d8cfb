#include "gui/agent_mode.hpp"

#include <QCoreApplication>

namespace rio::gui {

ModeChoice mode_choice(std::string_view mode, bool auto_accept) {
    if (mode == "plan") return ModeChoice::plan;
    return auto_accept ? ModeChoice::auto_accept : ModeChoice::review;
}

QString mode_label(ModeChoice choice) {
    switch (choice) {
    case ModeChoice::plan:
        return QCoreApplication::translate("rio", "Plan");
    case ModeChoice::review:
        return QCoreApplication::translate("rio", "Review");
    case ModeChoice::auto_accept:
        return QCoreApplication::translate("rio", "Auto");
    }
    return {};
}

QString mode_tooltip(ModeChoice choice) {
    switch (choice) {
    case ModeChoice::plan:
        return QCoreApplication::translate(
            "rio", "Plan: the agent investigates read-only and presents a plan; nothing changes "
                   "until you approve it");
    case ModeChoice::review:
        return QCoreApplication::translate("rio",
                                           "Review: the agent may edit, and you approve each edit");
    case ModeChoice::auto_accept:
        return QCoreApplication::translate(
            "rio", "Auto: edits are applied without asking (commands still ask)");
    }
    return {};
}

std::vector<CoreRequest> mode_requests(ModeChoice choice) {
    if (choice == ModeChoice::plan)
        return {{QStringLiteral("agent.mode.set"), Json{{"mode", "plan"}}}};
    // Auto-accept first: leaving plan mode then lands on the chosen label at once, without
    // passing through the other build choice.
    return {
        {QStringLiteral("agent.autoaccept.set"), Json{{"on", choice == ModeChoice::auto_accept}}},
        {QStringLiteral("agent.mode.set"), Json{{"mode", "build"}}}};
}

} // namespace rio::gui
