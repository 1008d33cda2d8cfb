#include "gui/chat_transcript.hpp"

#include "client/trace_words.hpp"
#include "gui/markdown_bubble.hpp"
#include "gui/subagent_block.hpp"
#include "gui/theme.hpp"
#include "protocol/tool_words.hpp"

#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QPointer>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rio::gui {
namespace {

// Entries remember their kind and their plain text here (a label may show rich text).
constexpr const char* kind_property = "rio_entry";
constexpr const char* text_property = "rio_text";

const char* kind_name(ChatTranscript::Entry kind) {
    switch (kind) {
    case ChatTranscript::Entry::user:
        return "user";
    case ChatTranscript::Entry::streaming:
        return "streaming";
    case ChatTranscript::Entry::message:
        return "message";
    case ChatTranscript::Entry::thinking:
        return "thinking";
    case ChatTranscript::Entry::tool:
        return "tool";
    case ChatTranscript::Entry::error:
        return "error";
    case ChatTranscript::Entry::note:
        return "note";
    case ChatTranscript::Entry::edit:
        return "edit";
    case ChatTranscript::Entry::summary:
        return "summary";
    case ChatTranscript::Entry::command:
        return "command";
    case ChatTranscript::Entry::subagent:
        return "subagent";
    }
    return "";
}

QLabel* text_label(const QString& text) {
    auto* label = new QLabel(text);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    return label;
}

QString escaped(const QString& text) {
    return text.toHtmlEscaped();
}

// A present_plan line's call id, on its label.
constexpr const char* plan_call_property = "rio_plan_call";
// A tool line with its outcome: the line, the outcome's words, whether it failed; painted
// again in a new theme's colours.
constexpr const char* line_property = "rio_tool_line";
constexpr const char* outcome_property = "rio_outcome";
constexpr const char* failed_property = "rio_failed";

QString plan_link(const QString& html) {
    return QStringLiteral("<a href=\"plan\">") + html + QStringLiteral("</a>");
}

// Thinking: one dimmed line that unfolds to the whole text on a click.
class ThinkingBlock : public QWidget {
public:
    ThinkingBlock() : toggle_(new QToolButton), body_(text_label(QString())) {
        toggle_->setAutoRaise(true);
        toggle_->setCheckable(true);
        toggle_->setToolButtonStyle(Qt::ToolButtonTextOnly);
        toggle_->setToolTip(QObject::tr("Show or hide the model's thinking"));
        toggle_->setStyleSheet(QStringLiteral("QToolButton { color: palette(mid); border: none; "
                                              "text-align: left; padding: 0; }"));
        body_->setStyleSheet(QStringLiteral("QLabel { color: palette(mid); }"));
        body_->hide();
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(2);
        layout->addWidget(toggle_, 0, Qt::AlignLeft);
        layout->addWidget(body_);
        QObject::connect(toggle_, &QToolButton::toggled, body_, [this](bool open) {
            body_->setVisible(open);
            update_toggle();
        });
        update_toggle();
    }
    void append(const QString& text) {
        text_ += text;
        body_->setText(text_);
        setProperty(text_property, text_);
        update_toggle();
    }

private:
    void update_toggle() {
        const QString preview = QString::fromStdString(client::first_line(text_.toStdString(), 80));
        toggle_->setText(toggle_->isChecked() ? QObject::tr("▾ Thinking")
                                              : QObject::tr("▸ Thinking: ") + preview);
    }
    QToolButton* toggle_;
    QLabel* body_;
    QString text_;
};

} // namespace

ChatTranscript::ChatTranscript(QWidget* parent)
    : QScrollArea(parent), list_(new QWidget), layout_(new QVBoxLayout(list_)) {
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    layout_->setContentsMargins(10, 10, 10, 10);
    layout_->setSpacing(8);
    layout_->addStretch(1);
    // The list is the viewport's width, never its widest entry's: one word too long to wrap
    // (a 250-character argument in a tool line) made every entry that wide, the replies'
    // right sides and the cards' buttons cut off with no way to reach them (issue 46). Now
    // only that entry is cut, and a message scrolls sideways inside itself.
    list_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setWidget(list_);
    setFocusPolicy(Qt::NoFocus);
    list_->setObjectName(QStringLiteral("chat-list"));
    follow_theme(this, [this] {
        const ThemeColours c = theme_colours();
        setStyleSheet(QStringLiteral("QWidget#chat-list { background: palette(base); }"
                                     "QLabel#user { background: %1; color: %2; border-radius: 6px; "
                                     "padding: 6px 8px; }"
                                     "QLabel#tool { color: %3; }"
                                     "QLabel#note { color: %3; font-style: italic; }"
                                     "QLabel#error { color: %4; }"
                                     "QFrame#edit, QFrame#command { background: palette(window); "
                                     "border: 1px solid palette(mid); border-radius: 6px; }")
                          .arg(c.user_background.name(), c.user_text.name(), c.muted_text.name(),
                               c.error_text.name()));
        for (QLabel* label : list_->findChildren<QLabel*>())
            if (label->property(outcome_property).isValid()) show_outcome(label);
    });

    // Stay at the newest entry while the person has not scrolled up to read.
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        at_bottom_ = value >= verticalScrollBar()->maximum() - 4;
        if (revealing_ && value != revealed_at_) revealing_ = nullptr; // scrolled away from it
    });
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int max) {
        if (revealing_)
            show_revealed();
        else if (at_bottom_)
            verticalScrollBar()->setValue(max);
    });
}

void ChatTranscript::append(QWidget* entry, Entry kind) {
    entry->setObjectName(QString::fromLatin1(kind_name(kind)));
    entry->setProperty(kind_property, static_cast<int>(kind));
    layout_->insertWidget(layout_->count() - 1, entry); // before the stretch
    follow_bottom();
}

void ChatTranscript::follow_bottom() {
    if (at_bottom_) verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void ChatTranscript::end_streaming() {
    streaming_ = nullptr;
    streamed_.clear();
    thinking_ = nullptr;
}

// A message of the person's: right-click it to rewind the conversation to just before it.
constexpr const char* turn_property = "rio_turn";

void ChatTranscript::add_user(const QString& text, std::optional<std::uint64_t> turn) {
    end_streaming();
    at_bottom_ = true;
    revealing_ = nullptr;
    QLabel* label = text_label(text);
    label->setProperty(text_property, text);
    if (turn) label->setProperty(turn_property, QVariant::fromValue<qulonglong>(*turn));
    label->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(label, &QWidget::customContextMenuRequested, this, [this, label](const QPoint& at) {
        QMenu menu;
        QAction* copy = menu.addAction(tr("Copy"));
        copy->setEnabled(label->hasSelectedText());
        connect(copy, &QAction::triggered, label,
                [label] { QGuiApplication::clipboard()->setText(label->selectedText()); });
        QAction* rewind = menu.addAction(tr("Rewind to Here…"));
        const QVariant turn = label->property(turn_property);
        rewind->setEnabled(turn.isValid());
        rewind->setToolTip(tr("Return the conversation to just before this message and put "
                              "back the files the agent's edits changed since"));
        connect(rewind, &QAction::triggered, this,
                [this, turn] { emit rewind_requested(turn.toULongLong()); });
        menu.exec(label->mapToGlobal(at));
    });
    last_user_ = label;
    append(label, Entry::user);
}

void ChatTranscript::set_last_user_turn(std::uint64_t turn) {
    if (last_user_ && !last_user_->property(turn_property).isValid())
        last_user_->setProperty(turn_property, QVariant::fromValue<qulonglong>(turn));
}

void ChatTranscript::add_delta(const QString& text) {
    thinking_ = nullptr; // thinking comes before the answer; new thinking is a new block
    if (!streaming_) {
        streaming_ = text_label(QString());
        append(streaming_, Entry::streaming);
    }
    streamed_ += text;
    streaming_->setText(streamed_);
    streaming_->setProperty(text_property, streamed_);
    follow_bottom();
}

void ChatTranscript::add_thinking(const QString& text) {
    auto* block = static_cast<ThinkingBlock*>(thinking_);
    if (!block) {
        block = new ThinkingBlock;
        thinking_ = block;
        append(block, Entry::thinking);
    }
    block->append(text);
    follow_bottom();
}

void ChatTranscript::finish_message(const QString& text) {
    QLabel* streaming = streaming_;
    end_streaming();
    const QString markdown = text.trimmed().isEmpty() ? QString() : text;
    if (markdown.isEmpty()) {
        if (streaming) streaming->deleteLater();
        return;
    }
    auto* bubble = new MarkdownBubble(markdown);
    bubble->setProperty(text_property, without_joiners(bubble->toPlainText()));
    // In the streamed text's place, so the order of the transcript stays as it happened.
    replace(streaming, bubble, Entry::message);
}

void ChatTranscript::replace(QWidget* old, QWidget* entry, Entry kind) {
    const int at = old ? layout_->indexOf(old) : -1;
    if (at < 0) return append(entry, kind);
    layout_->removeWidget(old);
    old->deleteLater();
    entry->setObjectName(QString::fromLatin1(kind_name(kind)));
    entry->setProperty(kind_property, static_cast<int>(kind));
    layout_->insertWidget(at, entry);
    follow_bottom();
}

void ChatTranscript::add_tool(const ToolEvent& tool) {
    end_streaming();
    const std::string detail = client::tool_detail(tool);
    const std::string sandbox = client::tool_sandbox(tool);
    const QString text =
        QStringLiteral("› ") +
        QString::fromStdString(client::first_line(
            client::tool_verb(tool.name) + (detail.empty() ? "" : " " + detail), 160)) +
        (sandbox.empty() ? QString()
                         : QStringLiteral("   (%1)").arg(QString::fromStdString(sandbox)));
    QLabel* label = text_label(text);
    label->setProperty(text_property, text);
    if (tool.name == tool_words::present_plan.name && !tool.id.empty()) {
        // The plan's line is a link that shows the plan again.
        const QString id = QString::fromStdString(tool.id);
        label->setProperty(plan_call_property, id);
        label->setTextFormat(Qt::RichText);
        label->setText(plan_link(escaped(text)));
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse |
                                       Qt::LinksAccessibleByKeyboard);
        label->setToolTip(tr("Show this plan"));
        connect(label, &QLabel::linkActivated, this, [this, id] { emit plan_line_activated(id); });
    }
    append(label, Entry::tool);
    if (!tool.id.empty()) tools_.insert(QString::fromStdString(tool.id), label);
}

void ChatTranscript::add_tool_progress(const ToolProgressEvent& progress) {
    QLabel* label = tools_.value(QString::fromStdString(progress.id));
    if (!label) return;
    if (!label->property(line_property).isValid())
        label->setProperty(line_property, label->property(text_property));
    const QString line = label->property(line_property).toString();
    const QString words =
        QStringLiteral("… ") + QString::fromStdString(client::progress_text(progress));
    label->setProperty(outcome_property, words);
    label->setProperty(failed_property, false);
    show_outcome(label);
    label->setProperty(text_property, line + QStringLiteral("\n  ") + words);
}

void ChatTranscript::add_subagent(const SubagentEvent& event) {
    const QString id = QString::fromStdString(event.id);
    auto* block = static_cast<SubagentBlock*>(subagents_.value(id));
    if (!block) {
        block = new SubagentBlock(event);
        subagents_.insert(id, block);
        // Right under its task line, which the others of its step may already follow.
        QLabel* line = tools_.value(id);
        const int at = line ? layout_->indexOf(line) : -1;
        block->setObjectName(QStringLiteral("subagent"));
        block->setProperty(kind_property, static_cast<int>(Entry::subagent));
        int after = at;
        while (after >= 0 && after + 1 < layout_->count() - 1 &&
               layout_->itemAt(after + 1)->widget() &&
               layout_->itemAt(after + 1)->widget()->objectName() == QLatin1String("subagent"))
            ++after;
        if (at >= 0)
            layout_->insertWidget(after + 1, block);
        else
            append(block, Entry::subagent);
        follow_bottom();
    } else {
        block->add(event);
    }
    block->setProperty(text_property, block->text());
}

void ChatTranscript::add_tool_result(const ToolResultEvent& result,
                                     const client::ToolOutcome& outcome) {
    QLabel* label = tools_.take(QString::fromStdString(result.id));
    if (!label) return;
    // The line as it was before any progress was shown under it.
    const QString line = label->property(line_property).isValid()
                             ? label->property(line_property).toString()
                             : label->property(text_property).toString();
    if (outcome.text.empty()) {
        if (!label->property(outcome_property).isValid()) return;
        label->setProperty(outcome_property, QVariant());
        label->setProperty(line_property, QVariant());
        label->setProperty(text_property, line);
        const bool plan = label->property(plan_call_property).isValid();
        label->setTextFormat(plan ? Qt::RichText : Qt::PlainText);
        label->setText(plan ? plan_link(escaped(line)) : line);
        return;
    }
    const QString text = QString::fromStdString(outcome.text);
    const QString mark =
        outcome.failed || outcome.rejected ? QStringLiteral("✗ ") : QStringLiteral("✓ ");
    label->setProperty(line_property, line);
    label->setProperty(outcome_property, mark + text);
    // A rejection is said in grey: a decision, not a failure.
    label->setProperty(failed_property, outcome.failed);
    show_outcome(label);
    label->setProperty(text_property, line + QStringLiteral("\n  ") + mark + text);
}

void ChatTranscript::show_outcome(QLabel* label) {
    const QString line = label->property(line_property).toString();
    const bool failed = label->property(failed_property).toBool();
    const ThemeColours colours = theme_colours();
    label->setTextFormat(Qt::RichText);
    const bool plan = label->property(plan_call_property).isValid();
    label->setText((plan ? plan_link(escaped(line)) : escaped(line)) +
                   QStringLiteral("<br><span style=\"color:%1\">&nbsp;&nbsp;")
                       .arg((failed ? colours.error_text : colours.muted_text).name()) +
                   escaped(label->property(outcome_property).toString()) +
                   QStringLiteral("</span>"));
}

void ChatTranscript::add_error(const QString& text) {
    end_streaming();
    QLabel* label = text_label(text);
    label->setProperty(text_property, text);
    append(label, Entry::error);
}

QWidget* ChatTranscript::add_note(const QString& text) {
    end_streaming();
    QLabel* label = text_label(text);
    label->setProperty(text_property, text);
    append(label, Entry::note);
    return label;
}

void ChatTranscript::remove_entry(QWidget* entry) {
    if (!entry || layout_->indexOf(entry) < 0) return;
    layout_->removeWidget(entry);
    entry->deleteLater();
}

void ChatTranscript::add_card(const QString& call_id, QWidget* card, const QString& text,
                              Entry kind) {
    end_streaming();
    card->setProperty(text_property, text);
    replace(tools_.take(call_id), card, kind);
}

void ChatTranscript::reveal(QWidget* entry) {
    at_bottom_ = false; // the entry grows now: following the newest one would push it away
    revealing_ = entry;
    // Again once the list has laid the grown entry out (the range changes then too).
    QTimer::singleShot(0, this, &ChatTranscript::show_revealed);
    show_revealed();
}

void ChatTranscript::show_revealed() {
    if (!revealing_) return;
    QScrollBar* bar = verticalScrollBar();
    const int top = revealing_->mapTo(list_, QPoint(0, 0)).y() - layout_->spacing();
    const int bottom = top + revealing_->height() + 2 * layout_->spacing();
    int value = bar->value();
    if (bottom > value + viewport()->height()) value = bottom - viewport()->height();
    value = std::clamp(std::min(value, top), bar->minimum(), bar->maximum());
    revealed_at_ = value;
    bar->setValue(value);
    at_bottom_ = bar->value() >= bar->maximum() - 4;
}

void ChatTranscript::add_entry(QWidget* entry, Entry kind, const QString& text) {
    end_streaming();
    entry->setProperty(text_property, text);
    append(entry, kind);
}

void ChatTranscript::set_entry_text(QWidget* entry, const QString& text) {
    entry->setProperty(text_property, text);
}

void ChatTranscript::clear() {
    end_streaming();
    revealing_ = nullptr;
    tools_.clear();
    subagents_.clear();
    while (layout_->count() > 1) {
        QLayoutItem* item = layout_->takeAt(0);
        if (QWidget* widget = item->widget()) widget->deleteLater();
        delete item;
    }
    at_bottom_ = true;
}

int ChatTranscript::entry_count() const {
    return layout_->count() - 1;
}

QWidget* ChatTranscript::entry_widget(int index) const {
    QLayoutItem* item = layout_->itemAt(index);
    return item ? item->widget() : nullptr;
}

ChatTranscript::Entry ChatTranscript::entry_kind(int index) const {
    QWidget* widget = entry_widget(index);
    return widget ? static_cast<Entry>(widget->property(kind_property).toInt()) : Entry::note;
}

QString ChatTranscript::entry_text(int index) const {
    QWidget* widget = entry_widget(index);
    return widget ? widget->property(text_property).toString() : QString();
}

QStringList ChatTranscript::texts_of(Entry kind) const {
    QStringList texts;
    for (int i = 0; i < entry_count(); ++i)
        if (entry_kind(i) == kind) texts << entry_text(i);
    return texts;
}

} // namespace rio::gui
