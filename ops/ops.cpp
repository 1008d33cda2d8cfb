#include "ops/ops.hpp"

namespace rio {

void register_workspace_ops(Dispatcher& dispatcher, OpContext& context) {
    register_session_ops(dispatcher, context);
    register_project_ops(dispatcher, context);
    register_fs_ops(dispatcher, context);
    register_search_ops(dispatcher, context);
    register_buffer_ops(dispatcher, context);
    register_diff_ops(dispatcher, context);
    register_trust_ops(dispatcher, context);
}

} // namespace rio
