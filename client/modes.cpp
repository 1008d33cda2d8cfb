#include "client/modes.hpp"

namespace rio::client {

ModeChoice mode_choice(std::string_view mode, bool auto_accept) {
    if (wire_is(mode, Mode::plan)) return ModeChoice::plan;
    return auto_accept ? ModeChoice::auto_accept : ModeChoice::review;
}

std::string_view mode_word(ModeChoice choice) {
    switch (choice) {
    case ModeChoice::plan:
        return "plan";
    case ModeChoice::review:
        return "review";
    case ModeChoice::auto_accept:
        return "auto";
    }
    return "review";
}

ModeChoice next_choice(ModeChoice choice) {
    switch (choice) {
    case ModeChoice::plan:
        return ModeChoice::review;
    case ModeChoice::review:
        return ModeChoice::auto_accept;
    case ModeChoice::auto_accept:
        return ModeChoice::plan;
    }
    return ModeChoice::plan;
}

ModeRequests mode_requests(ModeChoice choice) {
    if (choice == ModeChoice::plan)
        return {std::nullopt, ModeSetParams{std::string(to_wire(Mode::plan))}};
    // Auto-accept first: leaving plan mode then lands on the chosen choice at once, without
    // passing through the other build choice.
    return {AutoAcceptSetParams{choice == ModeChoice::auto_accept},
            ModeSetParams{std::string(to_wire(Mode::build))}};
}

} // namespace rio::client
