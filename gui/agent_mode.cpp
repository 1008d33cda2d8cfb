#include "gui/agent_mode.hpp"

#include <QCoreApplication>

namespace rio::gui {

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

} // namespace rio::gui
