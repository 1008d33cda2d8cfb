#include "gui/core_client.hpp"

#include "client/remote_address.hpp"
#include "io/listen_address.hpp"
#include "io/user_dirs.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QLocalSocket>
#include <QProcess>
#include <QTcpSocket>
#include <QTimer>
#include <cstdio>

extern char** environ;

namespace rio::gui {
namespace {

constexpr qsizetype stderr_tail_chars = 4000;

// A handler that is skipped once `context` is gone (as with QObject::connect).
struct Waiting {
    client::ReplyHandler done;
    QPointer<const QObject> context;
    bool has_context = false;
    void operator()(const client::Reply& reply) const {
        if (done && (!has_context || context)) done(reply);
    }
};

QString last_line(const QString& text) {
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

} // namespace

CoreClient::CoreClient(QObject* parent) : QObject(parent) {
    qRegisterMetaType<rio::Json>();
    qRegisterMetaType<rio::client::CoreEvent>();
}

CoreClient::~CoreClient() {
    // Nothing may reach a half-destroyed client, and callbacks are not run: their owners are
    // going away too.
    if (device_) device_->disconnect(this);
    if (process_) {
        process_->closeWriteChannel(); // EOF: a private core stops on its own
        if (!process_->waitForFinished(2000)) {
            process_->kill();
            process_->waitForFinished(1000);
        }
        forward_stderr();
    }
}

void CoreClient::start(const CoreOptions& options) {
    options_ = options;
    // Queued before anything else, so it is the first line the core reads.
    HelloParams hello;
    hello.client = "rio";
    request(op::session_hello, Json(hello),
            [this](const Json& result, const std::optional<Error>& error) {
                answered_hello(result, error);
            });
    private_ = options.connect.isEmpty();
    // From the event loop, so even a failure that Qt reports at once (no such socket, no such
    // program) reaches handlers connected after start().
    QTimer::singleShot(0, this, [this, options] {
        if (options.connect.isEmpty())
            start_process(options);
        else if (client::is_remote_spec(options.connect.toStdString()))
            start_ssh(options);
        else
            connect_socket(options.connect, options.token);
    });
}

void CoreClient::reconnect() {
    if (!lost_) return;
    if (device_) {
        device_->disconnect(this);
        if (process_) {
            process_->kill();
            process_->waitForFinished(1000);
        }
        device_->deleteLater();
    }
    device_ = nullptr;
    process_ = nullptr;
    reader_ = LineReader{max_core_line};
    hello_ = Json();
    transport_up_ = lost_ = false;
    lost_reason_.clear();
    stderr_tail_.clear();
    far_.reset();
    start(options_);
}

void CoreClient::answered_hello(const Json& result, const std::optional<Error>& error) {
    if (far_) {
        if (auto problem = far_->check_answer(result, error, "rio")) {
            lose(QString::fromStdString(problem->message));
            return;
        }
    } else if (error) {
        lose("rio-core did not answer session.hello: " + QString::fromStdString(error->message));
        return;
    }
    hello_ = result;
    connected_ = true;
    emit connected();
}

void CoreClient::start_process(const CoreOptions& options) {
    QString program = options.core_program;
    if (program.isEmpty())
        program = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("rio-core"));
    QStringList args{QStringLiteral("--stdio")};
    if (!options.project.isEmpty()) args << QStringLiteral("--project") << options.project;
    if (!options.provider.isEmpty()) args << QStringLiteral("--provider") << options.provider;
    if (!options.mode.isEmpty()) args << QStringLiteral("--mode") << options.mode;
    args << options.extra_args;
    start_program(program, args);
}

// The system ssh in batch mode: the desktop does not type passwords or accept host keys for
// the person; ssh's reason comes back in a message that says what to do (decision 0061).
void CoreClient::start_ssh(const CoreOptions& options) {
    auto address = client::parse_remote_address(options.connect.toStdString());
    if (!address) {
        lose(QString::fromStdString(address.error().message));
        return;
    }
    far_launch_ =
        client::configured_remote_launch(find_user_dirs("/proc/self/exe").settings_file().string());
    far_launch_.provider = options.provider.toStdString();
    far_launch_.mode = options.mode.toStdString();
    far_launch_.batch = true;
    auto argv = client::ssh_argv(*address, far_launch_);
    if (!argv) {
        lose("cannot connect to " + options.connect + ": " +
             QString::fromStdString(argv.error().message));
        return;
    }
    far_.emplace(*address, far_launch_.core);
    QStringList args;
    for (std::size_t i = 1; i < argv->size(); ++i)
        args << QString::fromStdString((*argv)[i]);
    start_program(QString::fromStdString(argv->front()), args);
}

void CoreClient::start_program(const QString& program, const QStringList& args) {
    process_ = new QProcess(this);
    device_ = process_;
    process_->setProcessChannelMode(QProcess::SeparateChannels);
    process_->setReadChannel(QProcess::StandardOutput);
    // ssh hands its environment to a ProxyCommand, a LocalCommand and SendEnv: the provider
    // keys stay here (client::ssh_environment, as rio-cli and rio-acp start it).
    if (far_) {
        QStringList environment;
        for (const std::string& entry : client::ssh_environment(environ))
            environment << QString::fromStdString(entry);
        process_->setEnvironment(environment);
    }
    connect(process_, &QProcess::started, this, &CoreClient::transport_ready);
    connect(process_, &QProcess::readyReadStandardOutput, this, &CoreClient::read_available);
    connect(process_, &QProcess::readyReadStandardError, this, &CoreClient::forward_stderr);
    connect(process_, &QProcess::errorOccurred, this, [this, program](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            lose((far_ ? "cannot start ssh (" : "cannot start rio-core (") + program +
                 "): " + process_->errorString());
    });
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        read_available(); // its last answers still count
        forward_stderr();
        program_finished(code, status == QProcess::CrashExit);
    });
    process_->start(program, args);
}

void CoreClient::program_finished(int code, bool crashed) {
    const QString last = last_line(stderr_tail_);
    if (far_ && !far_->answered()) {
        client::RemoteProblem problem = client::classify_ssh_exit(
            far_->address(), far_launch_, crashed ? -1 : code, stderr_tail_.toStdString());
        if (problem.kind == client::RemoteFailure::other) problem.message += far_->noise_note();
        lose(QString::fromStdString(problem.message));
        return;
    }
    QString why;
    if (far_)
        why = "the connection to " + QString::fromStdString(far_->address().host) + " closed";
    else
        why = crashed ? QStringLiteral("rio-core stopped unexpectedly (crashed or killed)")
                      : QStringLiteral("rio-core exited (code %1)").arg(code);
    if (!last.isEmpty()) why += ": " + last;
    lose(why);
}

void CoreClient::connect_socket(const QString& spec, const QString& given_token) {
    auto address = parse_connect_address(spec.toStdString());
    if (!address) {
        lose("cannot connect to " + spec + ": " + QString::fromStdString(address.error().message));
        return;
    }
    auto closed = [this, spec] { lose("the connection to rio-core at " + spec + " closed"); };
    if (address->unix_socket) {
        auto* socket = new QLocalSocket(this);
        device_ = socket;
        connect(socket, &QLocalSocket::connected, this, &CoreClient::transport_ready);
        connect(socket, &QLocalSocket::readyRead, this, &CoreClient::read_available);
        connect(socket, &QLocalSocket::disconnected, this, closed);
        connect(socket, &QLocalSocket::errorOccurred, this,
                [this, socket, spec, closed](QLocalSocket::LocalSocketError e) {
                    if (e == QLocalSocket::PeerClosedError) return closed();
                    // Qt's own wording for these ("Invalid name") says little.
                    QString why = e == QLocalSocket::ServerNotFoundError ? tr("no such socket")
                                  : e == QLocalSocket::ConnectionRefusedError
                                      ? tr("nothing accepts connections there")
                                      : socket->errorString();
                    lose("cannot reach rio-core at " + spec + ": " + why);
                });
        socket->connectToServer(QString::fromStdString(address->path));
    } else {
        // DESIGN §12: a TCP core admits a client whose first line carries its token.
        std::string token = given_token.toStdString();
        if (token.empty())
            token = find_user_dirs("/proc/self/exe").listener_token(address->host, address->port);
        if (token.empty()) {
            lose("cannot attach to rio-core at " + spec +
                 ": it needs its token; pass --token, or run as the user who started it");
            return;
        }
        auto* socket = new QTcpSocket(this);
        device_ = socket;
        connect(socket, &QTcpSocket::connected, this, [this, socket, token, spec] {
            socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // keystrokes are tiny
            HelloParams hello;
            hello.token = token;
            hello.client = "rio";
            std::string line = requests_.encode(
                op::session_hello, Json(hello), [this, spec](const client::Reply& reply) {
                    if (!reply.ok())
                        lose("rio-core at " + spec +
                             " refused the token: " + QString::fromStdString(reply.error->message));
                });
            socket->write(line.data(), static_cast<qint64>(line.size()));
            transport_ready();
        });
        connect(socket, &QTcpSocket::readyRead, this, &CoreClient::read_available);
        connect(socket, &QTcpSocket::disconnected, this, closed);
        connect(socket, &QTcpSocket::errorOccurred, this,
                [this, socket, spec, closed](QAbstractSocket::SocketError e) {
                    if (e == QAbstractSocket::RemoteHostClosedError) return closed();
                    lose("cannot reach rio-core at " + spec + ": " + socket->errorString());
                });
        socket->connectToHost(QString::fromStdString(address->host), address->port);
    }
}

void CoreClient::transport_ready() {
    transport_up_ = true;
    if (!outbox_.empty()) {
        device_->write(outbox_.data(), static_cast<qint64>(outbox_.size()));
        outbox_.clear();
    }
}

void CoreClient::request(std::string_view op, Json params, Done done) {
    request(op, std::move(params), nullptr, std::move(done));
}

void CoreClient::request(std::string_view op, Json params, const QObject* context, Done done) {
    client::ReplyHandler handler;
    if (done)
        handler = [done = std::move(done)](const client::Reply& reply) {
            done(reply.result, reply.error);
        };
    send(op, params, context, std::move(handler));
}

void CoreClient::send(std::string_view op, const Json& params, const QObject* context,
                      client::ReplyHandler done) {
    Waiting waiting{std::move(done), context, context != nullptr};
    if (lost_) {
        if (waiting.done)
            QTimer::singleShot(0, this, [waiting = std::move(waiting), why = lost_reason_] {
                waiting(client::Reply{Json(), Error{ErrorCode::io_error, why.toStdString()}});
            });
        return;
    }
    client::ReplyHandler handler;
    if (waiting.done) handler = std::move(waiting);
    write(requests_.encode(op, params, std::move(handler)));
}

void CoreClient::write(const std::string& line) {
    if (!transport_up_) {
        outbox_ += line;
        return;
    }
    device_->write(line.data(), static_cast<qint64>(line.size()));
}

void CoreClient::read_available() {
    if (!device_) return;
    QByteArray bytes = device_->readAll();
    if (bytes.isEmpty()) return;
    QPointer<CoreClient> alive(this); // a handler may end this client
    for (Frame& frame : reader_.feed(std::string_view(bytes.constData(), bytes.size()))) {
        if (far_ && !far_->answered()) {
            // Before the far core answers: the far shell's banner is skipped, boundedly.
            const auto line = far_->take(frame.line, frame.oversize);
            if (line == client::FarGreeting::Line::skipped) continue;
            if (line == client::FarGreeting::Line::too_much) {
                lose(QString::fromStdString(far_->give_up().message));
                return;
            }
        }
        if (frame.oversize) {
            std::fprintf(stderr, "rio: dropped a %zu-byte line from rio-core\n", frame.oversize);
            continue;
        }
        take(frame.line);
        if (!alive) return;
    }
}

void CoreClient::take(const std::string& line) {
    const std::size_t malformed = requests_.malformed();
    if (auto event = requests_.take(line)) {
        emit core_event(*event);
        return;
    }
    // Only a line the core could not read gets a null id; that is a bug on this side.
    if (requests_.malformed() != malformed)
        std::fprintf(stderr,
                     "rio: rio-core sent a line that is neither a reply nor an event: %.200s\n",
                     line.c_str());
}

void CoreClient::forward_stderr() {
    if (!process_) return;
    QByteArray bytes = process_->readAllStandardError();
    if (bytes.isEmpty()) return;
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
    std::fflush(stderr);
    stderr_tail_ += QString::fromUtf8(bytes);
    if (stderr_tail_.size() > stderr_tail_chars)
        stderr_tail_ = stderr_tail_.right(stderr_tail_chars);
}

void CoreClient::lose(const QString& why) {
    if (lost_) return;
    lost_ = true;
    // A far program that answered wrongly, or a core that did not answer, is told to end.
    if (process_ && process_->state() != QProcess::NotRunning) process_->closeWriteChannel();
    lost_reason_ = why;
    connected_ = false;
    transport_up_ = false;
    outbox_.clear();
    QPointer<CoreClient> alive(this);
    emit disconnected(why);
    if (alive) requests_.fail_all(Error{ErrorCode::io_error, why.toStdString()});
}

QString CoreClient::far_host() const {
    return far_ ? QString::fromStdString(far_->address().host) : QString();
}

qint64 CoreClient::core_pid() const {
    return process_ ? process_->processId() : 0;
}

} // namespace rio::gui
