#include "gui/conflict_bar.hpp"

#include "gui/centre_area.hpp"
#include "gui/code_editor.hpp"
#include "gui/compare_view.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/theme.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <memory>

namespace rio::gui {

ConflictBar::ConflictBar(CoreClient& core, EditorArea& editors, CentreArea& centre, QWidget* parent)
    : QFrame(parent), core_(core), editors_(editors), centre_(centre),
      compare_view_(new CompareView), text_(new QLabel), reload_(new QPushButton(tr("Re&load"))),
      keep_(new QPushButton(tr("&Keep mine"))), compare_(new QPushButton(tr("Co&mpare"))) {
    setObjectName(QStringLiteral("conflict_bar"));
    setFrameShape(QFrame::StyledPanel);
    follow_theme(this, [this] {
        const ThemeColours c = theme_colours();
        setStyleSheet(
            QStringLiteral("#conflict_bar { background: %1; border-bottom: 1px solid %2; }"
                           "#conflict_bar QLabel { color: %3; }")
                .arg(c.attention_background.name(), c.attention_border.name(),
                     c.attention_text.name()));
    });
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::PlainText);
    reload_->setToolTip(tr("Replace your unsaved edits with the text on disk"));
    keep_->setToolTip(tr("Keep your text; saving will ask before it replaces the file on disk"));
    compare_->setToolTip(tr("Show the text on disk beside yours"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->addWidget(text_, 1);
    layout->addWidget(reload_);
    layout->addWidget(keep_);
    layout->addWidget(compare_);
    hide();
    centre_.add_view(compare_view_);

    connect(reload_, &QPushButton::clicked, this, &ConflictBar::reload);
    connect(keep_, &QPushButton::clicked, this, &ConflictBar::keep);
    connect(compare_, &QPushButton::clicked, this, &ConflictBar::compare);
    connect(compare_view_, &CompareView::close_requested, this, [this] {
        if (centre_.current_view() == compare_view_) centre_.show_editors();
    });
    connect(&editors_, &QTabWidget::currentChanged, this, &ConflictBar::follow);
    connect(&centre_, &CentreArea::view_changed, this, &ConflictBar::follow);
    connect(&core_, &CoreClient::core_event, this, &ConflictBar::on_event);
}

void ConflictBar::on_event(const client::CoreEvent& event) {
    if (std::holds_alternative<ProjectChangedEvent>(event)) {
        conflicts_.clear();
        follow();
        return;
    }
    const auto* buffer = std::get_if<BufferChangedEvent>(&event);
    if (!buffer) return;
    const QString path = QString::fromStdString(buffer->path);
    if (buffer->is(BufferChange::disk_changed)) {
        conflicts_.insert(path, Conflict{buffer->deleted.value_or(false), buffer->dirty});
        follow();
    } else if (buffer->is(BufferChange::reloaded) || buffer->is(BufferChange::saved) ||
               buffer->is(BufferChange::closed)) {
        settled(path);
    }
}

QString ConflictBar::file_on_show() const {
    if (centre_.current_view() == compare_view_) return compared_;
    if (centre_.current_view() != &editors_) return {};
    return editors_.current_path();
}

void ConflictBar::follow() {
    const QString path = file_on_show();
    auto it = conflicts_.constFind(path);
    if (path.isEmpty() || it == conflicts_.constEnd()) {
        shown_.clear();
        hide();
        return;
    }
    shown_ = path;
    const QString name = path.section(QLatin1Char('/'), -1);
    if (it->deleted)
        text_->setText(tr("%1 was deleted on disk. Saving will write your text back.").arg(name));
    else if (it->dirty)
        text_->setText(tr("%1 changed on disk since you started editing it.").arg(name));
    else
        text_->setText(tr("%1 changed on disk into something rio cannot show as text; the editor "
                          "keeps the text it had.")
                           .arg(name));
    // Only a changed file has a text to take or to compare with.
    const bool readable = !it->deleted && it->dirty;
    reload_->setVisible(readable);
    compare_->setVisible(readable);
    show();
}

void ConflictBar::reload() {
    const QString path = shown_;
    if (path.isEmpty()) return;
    if (CodeEditor* editor = editors_.editor(path)) editor->flush_edits();
    core_.call(BufferReloadParams{path.toStdString()}, this,
               [this, path](const client::Typed<BufferReloadParams>& reloaded) {
                   if (!reloaded)
                       emit message(
                           tr("Cannot reload %1: %2")
                               .arg(path, QString::fromStdString(reloaded.error().message)));
                   // Otherwise buffer.changed `reloaded` settles it.
               });
}

// Nothing to tell the core: its buffer keeps the text, and a save without `force` is refused
// while the file differs from what the buffer last read, so EditorArea::save asks first.
void ConflictBar::keep() {
    settled(shown_);
}

void ConflictBar::settled(const QString& path) {
    conflicts_.remove(path);
    if (compared_ == path && centre_.current_view() == compare_view_) centre_.show_editors();
    follow();
}

// The disk's text and the buffer's, and the diff of the two; the core answers in order, so
// the diff comes last, when both texts are in.
void ConflictBar::compare() {
    const QString path = shown_;
    if (path.isEmpty()) return;
    if (CodeEditor* editor = editors_.editor(path)) editor->flush_edits();
    struct Sides {
        QString disk, mine;
        std::optional<Error> error;
    };
    auto sides = std::make_shared<Sides>();
    const std::string rel = path.toStdString();
    core_.call(FsReadParams{rel}, this, [sides](const client::Typed<FsReadParams>& disk) {
        if (disk)
            sides->disk = QString::fromStdString(disk->text);
        else if (!sides->error)
            sides->error = disk.error();
    });
    core_.call(BufferTextParams{rel}, this, [sides](const client::Typed<BufferTextParams>& mine) {
        if (mine)
            sides->mine = QString::fromStdString(mine->text.value_or(std::string()));
        else if (!sides->error)
            sides->error = mine.error();
    });
    DiffLinesParams sides_diff{Json{{"path", rel}, {"source", "disk"}},
                               Json{{"path", rel}, {"source", "buffer"}}, std::nullopt,
                               std::nullopt};
    core_.call(sides_diff, this, [this, path, sides](const client::Typed<DiffLinesParams>& diff) {
        const Error* failed = sides->error ? &*sides->error : !diff ? &diff.error() : nullptr;
        if (failed) {
            emit message(
                tr("Cannot compare %1: %2").arg(path, QString::fromStdString(failed->message)));
            return;
        }
        compared_ = path;
        compare_view_->show_compare(
            path, {tr("Compare — %1 · on disk | yours").arg(path), tr("On disk"), tr("Yours")},
            sides->disk, sides->mine, diff->hunks);
        centre_.show_view(compare_view_);
        compare_view_->setFocus(Qt::OtherFocusReason);
        emit compared();
    });
}

} // namespace rio::gui
