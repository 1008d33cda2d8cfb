// editor.reader.set and editor.read.reply (DESIGN §15): a frontend offers the editor's text
// and answers the reads host/editor_reader asks of it.
#include "host/server/editor_reader.hpp"
#include "ops/ops.hpp"

namespace rio {

void register_editor_ops(Dispatcher& dispatcher, EditorReader& reader) {
    dispatcher.on_client<EditorReaderSetParams>(
        [&reader](const EditorReaderSetParams& p, ClientId client) -> Result<EditorReaderResult> {
            return reader.set(client, p.enabled);
        });
    dispatcher.on_client<EditorReadReplyParams>(
        [&reader](const EditorReadReplyParams& p, ClientId client) -> Result<Empty> {
            return reader.reply(client, p);
        });
}

} // namespace rio
