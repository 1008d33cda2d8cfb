// The desktop frontend's only way to the project: a rio-core it starts on a pipe (the
// default), a running one it attaches to on a socket (`--connect`), or one it starts on
// another machine over ssh (`--connect ssh://`, DESIGN §22). The Qt transport glue over
// client::Requests: requests get their answer through a callback, events arrive typed as a
// signal.
#pragma once

#include "client/far_greeting.hpp"
#include "client/requests.hpp"
#include "protocol/error.hpp"
#include "protocol/line_reader.hpp"
#include "protocol/wire.hpp"

#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <optional>

class QIODevice;
class QProcess;

Q_DECLARE_METATYPE(rio::Json)
Q_DECLARE_METATYPE(rio::client::CoreEvent)

namespace rio::gui {

struct CoreOptions {
    // "unix:PATH" or "HOST:PORT": attach to a running core; "ssh://[user@]host[:port]/path":
    // start one there; empty: start one here.
    QString connect;
    QString core_program;   // the rio-core to start; empty: the one beside this executable
    QString project;        // a private core's --project
    QString provider;       // a started core's --provider NAME[:ARG] (here or over ssh)
    QString mode;           // a started core's --mode
    QStringList extra_args; // more rio-core arguments (tests add `--listen unix:PATH`)
    QString token;          // a TCP core's token; empty: the one in the user's runtime folder
};

// The core is trusted, and buffer.open answers a whole file (up to 64 MiB, more once
// escaped) on one line: the client's limit is higher than the core's 16 MiB.
inline constexpr std::size_t max_core_line = 512u * 1024 * 1024;

class CoreClient : public QObject {
    Q_OBJECT
public:
    using Done = std::function<void(const Json& result, const std::optional<Error>& error)>;

    explicit CoreClient(QObject* parent = nullptr);
    ~CoreClient() override;

    // Starts or attaches. `connected()` follows once the core answered session.hello;
    // `disconnected(why)` reports a core that could not be reached or went away.
    void start(const CoreOptions& options);
    // After disconnected(): the same start again (a new core, or the same socket). The
    // client's handlers and signal connections stay; `connected()` follows as at first.
    void reconnect();

    // Sends one request. `done` runs once: with the result, or with the error (the core's,
    // or io_error when the core went away before answering); never after this client is
    // destroyed.
    void request(std::string_view op, Json params = Json::object(), Done done = nullptr);
    // The same, but `done` is skipped once `context` is destroyed (as with QObject::connect):
    // widgets pass themselves, so a late answer never reaches a closed tab or window.
    void request(std::string_view op, Json params, const QObject* context, Done done);
    // The same from a params struct (protocol/messages.hpp), with the result decoded into its
    // struct; a result that does not match it is a bad_response error.
    template <typename P>
    void call(const P& params, const QObject* context,
              std::function<void(const client::Typed<P>&)> done) {
        client::ReplyHandler handler;
        if (done)
            handler = [done = std::move(done)](const client::Reply& reply) {
                done(client::typed_reply<typename P::Result>(reply));
            };
        send(P::op, Json(params), context, std::move(handler));
    }
    template <typename P>
    void call(const P& params, std::function<void(const client::Typed<P>&)> done = nullptr) {
        call(params, nullptr, std::move(done));
    }

    bool is_connected() const { return connected_; }
    bool is_private() const { return private_; }        // it started its own core, here
    bool is_remote() const { return far_.has_value(); } // it started one over ssh
    QString far_host() const;                           // the ssh host, else empty
    const CoreOptions& options() const { return options_; }
    bool is_lost() const { return lost_; } // disconnected() was emitted
    const QString& lost_reason() const { return lost_reason_; }
    const Json& hello() const { return hello_; } // the session.hello result
    std::size_t pending() const { return requests_.pending(); }
    qint64 core_pid() const; // the private core's process id, else 0

signals:
    void connected();
    // Every event the core broadcasts that this client knows, typed. Not named `event`: that
    // would hide QObject::event(QEvent*).
    void core_event(const rio::client::CoreEvent& event);
    void disconnected(const QString& why);

private:
    // request and call: `done` is skipped once a given `context` is gone, and gets io_error
    // (on the next turn of the event loop) when the core is already lost.
    void send(std::string_view op, const Json& params, const QObject* context,
              client::ReplyHandler done);
    void start_process(const CoreOptions& options);
    void start_ssh(const CoreOptions& options);
    void start_program(const QString& program, const QStringList& args);
    void answered_hello(const Json& result, const std::optional<Error>& error);
    void program_finished(int code, bool crashed);
    void connect_socket(const QString& address, const QString& token);
    void transport_ready();
    void read_available();
    void forward_stderr();
    void take(const std::string& line);
    void write(const std::string& line);
    void lose(const QString& why);

    QIODevice* device_ = nullptr; // the process or the socket, owned as a child
    QProcess* process_ = nullptr;
    CoreOptions options_;
    std::optional<client::FarGreeting> far_; // over ssh: until the far core answered, and after
    client::RemoteLaunch far_launch_;
    LineReader reader_{max_core_line};
    std::string outbox_; // lines written before the pipe or socket was up
    client::Requests requests_;
    Json hello_;
    bool connected_ = false;
    bool private_ = false;
    bool transport_up_ = false;
    bool lost_ = false;
    QString lost_reason_;
    QString stderr_tail_; // the core's last words, for the message when it dies
};

} // namespace rio::gui
