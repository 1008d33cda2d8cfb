// The edits a document had since its server last heard of it, as didChange's contentChanges:
// ranges in the server's positions, each against the text the ones before it left (a server
// applies them in order). An edit that continues the last one — typing on, deleting what was
// just typed, backspacing into the text before it — joins it, so a burst of keys goes out as
// one change. After a change of the whole text only the whole text goes out. Pure: the
// server decides when to send (lsp_server).
#pragma once

#include "host/lsp/lsp_protocol.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rio {

class LspChanges {
public:
    // The bytes [start, end) of `before` replaced by `text`. `before` is the text as every
    // edit since the last take() left it.
    void edit(const LineIndex& before, std::size_t start, std::size_t end, std::string_view text);
    void whole(); // the text changed in a way no range says: send all of it
    bool empty() const { return !whole_ && changes_.empty(); }
    // contentChanges for didChange, `text` being the document's text now; empties the list.
    nlohmann::json take(std::string_view text);

private:
    struct Change {
        LspRange range;     // in the text before this change
        std::string text;   // what replaced it
        std::size_t at = 0; // where `text` starts, in bytes, in the text after this change
    };
    std::vector<Change> changes_;
    bool whole_ = false;
};

} // namespace rio
