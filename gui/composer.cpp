#include "gui/composer.hpp"

#include "client/user_commands.hpp"
#include "gui/working_indicator.hpp"

#include <QAbstractItemView>
#include <QCompleter>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <functional>

namespace rio::gui {
namespace {

// The input: Enter sends, Shift+Enter (or an input method's newline) breaks the line, Esc
// stops a running turn.
class Input : public QPlainTextEdit {
public:
    std::function<void()> on_enter;
    std::function<void()> on_escape;
    std::function<void(const QModelIndex&)> on_pick;
    QCompleter* completer = nullptr;

protected:
    // Tab would move the focus before keyPressEvent sees it.
    bool event(QEvent* event) override {
        if (event->type() == QEvent::KeyPress && completer && completer->popup()->isVisible() &&
            command_list_key(static_cast<QKeyEvent*>(event)))
            return true;
        return QPlainTextEdit::event(event);
    }

    void keyPressEvent(QKeyEvent* event) override {
        const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
        if (enter && !(event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier |
                                             Qt::AltModifier | Qt::MetaModifier))) {
            on_enter();
            return;
        }
        if (enter && (event->modifiers() & Qt::ShiftModifier)) {
            insertPlainText(QStringLiteral("\n"));
            return;
        }
        if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier) {
            on_escape();
            return;
        }
        QPlainTextEdit::keyPressEvent(event);
    }

private:
    // The command list's keys when they reach the input rather than the list: a window
    // manager may leave the keyboard with the main window while the list shows, and then
    // Enter would send "/" and Esc would leave the list open. Enter and Tab pick the current
    // row, Esc closes, the arrows move.
    bool command_list_key(QKeyEvent* event) {
        QAbstractItemView* list = completer->popup();
        QAbstractItemModel* rows = list->model();
        const int row = list->currentIndex().isValid() ? list->currentIndex().row() : 0;
        switch (event->key()) {
        case Qt::Key_Return:
        case Qt::Key_Enter:
        case Qt::Key_Tab:
            list->hide();
            on_pick(rows->index(row, 0));
            return true;
        case Qt::Key_Escape:
            list->hide();
            return true;
        case Qt::Key_Up:
        case Qt::Key_Down: {
            const int step = event->key() == Qt::Key_Up ? -1 : 1;
            const int count = rows->rowCount();
            if (count > 0) list->setCurrentIndex(rows->index((row + step + count) % count, 0));
            return true;
        }
        default:
            return false;
        }
    }
};

} // namespace

Composer::Composer(QWidget* parent)
    : QWidget(parent), input_(new Input), commands_(new QStandardItemModel(this)),
      completer_(new QCompleter(commands_, this)), button_(new QPushButton),
      indicator_(new WorkingIndicator) {
    auto* input = static_cast<Input*>(input_);
    completer_->setWidget(input_);
    completer_->setCompletionMode(QCompleter::PopupCompletion);
    completer_->setCompletionRole(Qt::UserRole + 1); // the name; the list shows more
    completer_->setCaseSensitivity(Qt::CaseInsensitive);
    input->completer = completer_;
    input->on_pick = [this](const QModelIndex& index) {
        set_text(QStringLiteral("/") + index.data(Qt::UserRole + 1).toString() +
                 QStringLiteral(" "));
    };
    connect(completer_, qOverload<const QModelIndex&>(&QCompleter::activated), this,
            input->on_pick);
    input->on_enter = [this] { send(); };
    input->on_escape = [this] {
        if (busy_) emit stop_requested();
    };
    input_->setPlaceholderText(tr("Ask the agent… (Enter sends, Shift+Enter for a new line)"));
    input_->setTabChangesFocus(true);
    input_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    const int line = input_->fontMetrics().lineSpacing();
    input_->setMinimumHeight(3 * line + 12);
    input_->setMaximumHeight(8 * line + 12);
    input_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    input_->setAccessibleName(tr("Message to the agent"));

    button_->setAutoDefault(false);
    button_->setMinimumWidth(button_->fontMetrics().horizontalAdvance(tr("Stop")) + 40);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(indicator_, 1);
    row->addWidget(button_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 8);
    layout->setSpacing(4);
    layout->addWidget(input_);
    layout->addLayout(row);

    connect(button_, &QPushButton::clicked, this, &Composer::press_button);
    connect(input_, &QPlainTextEdit::textChanged, this, &Composer::update_state);
    connect(input_, &QPlainTextEdit::textChanged, this, &Composer::complete_command);
    update_state();
}

void Composer::set_commands(const std::vector<CommandInfo>& commands) {
    commands_->clear();
    for (const CommandInfo& c : commands) {
        auto* item = new QStandardItem(QString::fromStdString(client::command_line(c)));
        item->setData(QString::fromStdString(c.name), Qt::UserRole + 1);
        item->setEditable(false);
        commands_->appendRow(item);
    }
    complete_command(); // the list came while '/' was typed
}

void Composer::complete_command() {
    const QString text = input_->toPlainText();
    if (text == QStringLiteral("/")) emit commands_wanted();
    const bool naming = text.startsWith(QLatin1Char('/')) &&
                        !text.contains(QRegularExpression(QStringLiteral("\\s")));
    if (!naming || commands_->rowCount() == 0) {
        completer_->popup()->hide();
        return;
    }
    completer_->setCompletionPrefix(text.mid(1));
    if (completer_->completionCount() == 0) {
        completer_->popup()->hide();
        return;
    }
    completer_->popup()->setCurrentIndex(completer_->completionModel()->index(0, 0));
    QRect at = input_->cursorRect();
    at.setWidth(std::max(input_->width() - 20, 200));
    completer_->complete(at);
}

void Composer::set_connected(bool connected) {
    connected_ = connected;
    update_state();
}

void Composer::set_busy(bool busy) {
    busy_ = busy;
    update_state();
}

QString Composer::text() const {
    return input_->toPlainText();
}

void Composer::set_text(const QString& text) {
    input_->setPlainText(text);
    input_->moveCursor(QTextCursor::End);
}

QString Composer::activity() const {
    return connected_ ? indicator_->activity() : indicator_->text();
}

void Composer::send() {
    const QString text = input_->toPlainText().trimmed();
    if (!connected_ || text.isEmpty()) return;
    input_->clear();
    emit send_requested(text);
}

void Composer::press_button() {
    // While the agent works the button stops it; typing a message and pressing Enter still
    // sends (the core then ends the running turn).
    if (busy_)
        emit stop_requested();
    else
        send();
}

void Composer::update_state() {
    button_->setText(busy_ ? tr("Stop") : tr("Send"));
    button_->setToolTip(busy_ ? tr("Stop the agent (Esc in the message box)")
                              : tr("Send the message (Enter)"));
    button_->setEnabled(connected_ && (busy_ || !input_->toPlainText().trimmed().isEmpty()));
    input_->setReadOnly(!connected_);
    indicator_->set_offline(!connected_);
}

} // namespace rio::gui
