#include "gui/core_client.hpp"

#include "gui/core_address.hpp"
#include "host/user_dirs.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QLocalSocket>
#include <QProcess>
#include <QTcpSocket>
#include <QTimer>
#include <cstdio>

namespace rio::gui {
namespace {

constexpr qsizetype stderr_tail_chars = 4000;

Error error_from(const Json& error) {
    std::string code = error.is_object() ? error.value("code", "internal") : "internal";
    std::string message = error.is_object() ? error.value("message", "") : "";
    return Error{error_code_from_string(code).value_or(ErrorCode::internal), message};
}

QString last_line(const QString& text) {
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

} // namespace

CoreClient::CoreClient(QObject* parent) : QObject(parent) {
    qRegisterMetaType<rio::Json>();
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
    // Queued before anything else, so it is the first line the core reads.
    request("session.hello", Json{{"client", "rio"}},
            [this](const Json& result, const std::optional<Error>& error) {
                if (error) {
                    lose("rio-core did not answer session.hello: " +
                         QString::fromStdString(error->message));
                    return;
                }
                hello_ = result;
                connected_ = true;
                emit connected();
            });
    private_ = options.connect.isEmpty();
    // From the event loop, so even a failure that Qt reports at once (no such socket, no such
    // program) reaches handlers connected after start().
    QTimer::singleShot(0, this, [this, options] {
        if (options.connect.isEmpty())
            start_process(options);
        else
            connect_socket(options.connect, options.token);
    });
}

void CoreClient::start_process(const CoreOptions& options) {
    QString program = options.core_program;
    if (program.isEmpty())
        program = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("rio-core"));
    QStringList args{QStringLiteral("--stdio")};
    if (!options.project.isEmpty()) args << QStringLiteral("--project") << options.project;
    if (!options.provider.isEmpty()) args << QStringLiteral("--provider") << options.provider;
    args << options.extra_args;

    process_ = new QProcess(this);
    device_ = process_;
    process_->setProcessChannelMode(QProcess::SeparateChannels);
    process_->setReadChannel(QProcess::StandardOutput);
    connect(process_, &QProcess::started, this, &CoreClient::transport_ready);
    connect(process_, &QProcess::readyReadStandardOutput, this, &CoreClient::read_available);
    connect(process_, &QProcess::readyReadStandardError, this, &CoreClient::forward_stderr);
    connect(process_, &QProcess::errorOccurred, this, [this, program](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            lose("cannot start rio-core (" + program + "): " + process_->errorString());
    });
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        read_available(); // its last answers still count
        forward_stderr();
        QString why = status == QProcess::CrashExit
                          ? QStringLiteral("rio-core stopped unexpectedly (crashed or killed)")
                          : QStringLiteral("rio-core exited (code %1)").arg(code);
        if (QString last = last_line(stderr_tail_); !last.isEmpty()) why += ": " + last;
        lose(why);
    });
    process_->start(program, args);
}

void CoreClient::connect_socket(const QString& spec, const QString& given_token) {
    auto address = parse_core_address(spec);
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
        socket->connectToServer(address->path);
    } else {
        // DESIGN §12: a TCP core admits a client whose first line carries its token.
        std::string token = given_token.toStdString();
        if (token.empty())
            token = find_user_dirs("/proc/self/exe")
                        .listener_token(address->host.toStdString(), address->port);
        if (token.empty()) {
            lose("cannot attach to rio-core at " + spec +
                 ": it needs its token; pass --token, or run as the user who started it");
            return;
        }
        auto* socket = new QTcpSocket(this);
        device_ = socket;
        connect(socket, &QTcpSocket::connected, this, [this, socket, token] {
            socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // keystrokes are tiny
            std::string hello = Json{{"id", "token"},
                                     {"op", "session.hello"},
                                     {"params", {{"token", token}, {"client", "rio"}}}}
                                    .dump() +
                                "\n";
            socket->write(hello.data(), static_cast<qint64>(hello.size()));
            transport_ready();
        });
        connect(socket, &QTcpSocket::readyRead, this, &CoreClient::read_available);
        connect(socket, &QTcpSocket::disconnected, this, closed);
        connect(socket, &QTcpSocket::errorOccurred, this,
                [this, socket, spec, closed](QAbstractSocket::SocketError e) {
                    if (e == QAbstractSocket::RemoteHostClosedError) return closed();
                    lose("cannot reach rio-core at " + spec + ": " + socket->errorString());
                });
        socket->connectToHost(address->host, address->port);
    }
}

void CoreClient::transport_ready() {
    transport_up_ = true;
    if (!outbox_.empty()) {
        device_->write(outbox_.data(), static_cast<qint64>(outbox_.size()));
        outbox_.clear();
    }
}

void CoreClient::request(const QString& op, Json params, Done done) {
    request(op, std::move(params), nullptr, std::move(done));
}

void CoreClient::request(const QString& op, Json params, const QObject* context, Done done) {
    Waiting waiting{std::move(done), context, context != nullptr};
    if (lost_) {
        if (waiting.done)
            QTimer::singleShot(0, this, [waiting = std::move(waiting), why = lost_reason_] {
                waiting(Json(), Error{ErrorCode::io_error, why.toStdString()});
            });
        return;
    }
    long long id = next_id_++;
    waiting_.emplace(id, std::move(waiting));
    Json message{{"id", id}, {"op", op.toStdString()}, {"params", std::move(params)}};
    write(message.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
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
        if (frame.oversize) {
            std::fprintf(stderr, "rio: dropped a %zu-byte line from rio-core\n", frame.oversize);
            continue;
        }
        take(frame.line);
        if (!alive) return;
    }
}

void CoreClient::take(const std::string& line) {
    Json message = Json::parse(line, nullptr, false);
    if (message.is_discarded() || !message.is_object()) {
        std::fprintf(stderr, "rio: rio-core sent a line that is not a JSON object\n");
        return;
    }
    if (auto name = message.find("event"); name != message.end() && name->is_string()) {
        emit core_event(QString::fromStdString(name->get<std::string>()),
                        message.value("params", Json::object()));
        return;
    }
    auto id = message.find("id");
    if (id == message.end() || !id->is_number_integer()) {
        // Only a line the core could not read gets a null id; that is a bug on this side.
        std::fprintf(stderr, "rio: rio-core answered without an id: %s\n", line.c_str());
        return;
    }
    auto it = waiting_.find(id->get<long long>());
    if (it == waiting_.end()) return;
    Waiting done = std::move(it->second);
    waiting_.erase(it);
    if (message.value("ok", false))
        done(message.value("result", Json::object()), std::nullopt);
    else
        done(Json(), error_from(message.value("error", Json::object())));
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
    lost_reason_ = why;
    connected_ = false;
    transport_up_ = false;
    outbox_.clear();
    auto waiting = std::move(waiting_);
    waiting_.clear();
    QPointer<CoreClient> alive(this);
    emit disconnected(why);
    for (auto& [id, done] : waiting) {
        if (!alive) return;
        done(Json(), Error{ErrorCode::io_error, why.toStdString()});
    }
}

qint64 CoreClient::core_pid() const {
    return process_ ? process_->processId() : 0;
}

} // namespace rio::gui
