#include "gui/core_address.hpp"

namespace rio::gui {

Result<CoreAddress> parse_core_address(const QString& spec) {
    CoreAddress out;
    if (spec.startsWith(QLatin1String("unix:"))) {
        out.unix_socket = true;
        out.path = spec.mid(5);
        if (out.path.isEmpty())
            return make_error(ErrorCode::bad_request, "unix: needs a socket path");
        return out;
    }
    qsizetype colon = spec.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return make_error(ErrorCode::bad_request,
                          "expected unix:PATH or HOST:PORT, got '" + spec.toStdString() + "'");
    QString host = spec.left(colon);
    if (host.size() >= 2 && host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool number = false;
    uint port = spec.mid(colon + 1).toUInt(&number);
    if (!number || port == 0 || port > 65535)
        return make_error(ErrorCode::bad_request, "bad port in '" + spec.toStdString() + "'");
    out.host = host;
    out.port = static_cast<std::uint16_t>(port);
    return out;
}

} // namespace rio::gui
