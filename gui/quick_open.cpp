#include "gui/quick_open.hpp"

#include "client/fuzzy_match.hpp"
#include "gui/core_client.hpp"
#include "gui/marked_text.hpp"

#include <QApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace rio::gui {
namespace {

// Rows listed for a query: more than fit, fewer than would cost a keystroke anything.
constexpr std::size_t max_rows = 100;
constexpr int max_width = 640;
constexpr int max_visible_rows = 12;
// A symbol's row carries its place (a file's row has neither).
constexpr int symbol_line_role = Qt::UserRole + 10;
constexpr int symbol_column_role = Qt::UserRole + 11;

using Ranges = std::vector<std::pair<std::size_t, std::size_t>>;

// The file name first, its folder after it, dim: what a person reads a path by.
MarkedRuns runs_for(const std::string& path, const std::vector<std::size_t>& positions) {
    const std::size_t slash = path.rfind('/');
    const std::size_t name = slash == std::string::npos ? 0 : slash + 1;
    Ranges in_name, in_folder;
    for (std::size_t at : positions) {
        if (at >= name)
            in_name.emplace_back(at - name, at - name + 1);
        else
            in_folder.emplace_back(at, at + 1);
    }
    MarkedRuns runs = mark_bytes(std::string_view(path).substr(name), in_name);
    if (name > 0) {
        runs.append(MarkedRun{QStringLiteral("   "), false, true});
        runs.append(mark_bytes(std::string_view(path).substr(0, name - 1), in_folder, true));
    }
    return runs;
}

} // namespace

QuickOpen::QuickOpen(CoreClient& core, QWidget* over)
    : QFrame(over), core_(core), over_(over), field_(new QLineEdit(this)),
      list_(new QListWidget(this)), status_(new QLabel(this)) {
    setObjectName(QStringLiteral("quick_open"));
    setFrameShape(QFrame::StyledPanel);
    setFrameShadow(QFrame::Raised);
    setAutoFillBackground(true);
    field_->setPlaceholderText(tr("Go to a file by typing part of its name"));
    field_->setAccessibleName(tr("Go to file"));
    field_->installEventFilter(this);
    list_->setAccessibleName(tr("Matching files"));
    list_->setItemDelegate(new MarkedTextDelegate(list_));
    list_->setUniformItemSizes(true);
    list_->setFocusPolicy(Qt::NoFocus); // typing stays in the field; Up and Down move here
    status_->setContentsMargins(6, 2, 6, 2);
    status_->setTextFormat(Qt::PlainText);
    status_->hide();
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 6, 6, 6);
    column->setSpacing(4);
    column->addWidget(field_);
    column->addWidget(status_);
    column->addWidget(list_, 1);
    hide();

    over_->installEventFilter(this);
    connect(field_, &QLineEdit::textChanged, this, &QuickOpen::match);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        list_->setCurrentItem(item);
        choose();
    });
    // Like a menu: focus elsewhere closes it.
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        if (isVisible() && now && now != this && !isAncestorOf(now)) close_box();
    });
    connect(&core_, &CoreClient::core_event, this, &QuickOpen::on_event);
}

// A listing while the box is closed would often be wasted (a build writing files): it waits
// until the box opens, which shows the files known so far meanwhile.
void QuickOpen::on_event(const client::CoreEvent& event) {
    if (!std::holds_alternative<FsChangedEvent>(event)) return;
    stale_ = true;
    if (isVisible()) list_files();
}

void QuickOpen::follow_project(bool open) {
    ++generation_;
    listing_ = false;
    files_.clear();
    truncated_ = false;
    stale_ = true;
    if (open)
        list_files();
    else
        close_box();
}

void QuickOpen::open_box() {
    QWidget* focus = QApplication::focusWidget();
    if (!isVisible()) back_ = focus && focus != this && !isAncestorOf(focus) ? focus : nullptr;
    place();
    show();
    raise();
    field_->clear();
    symbols_for_.clear(); // the file may have changed since: listed again on `@`
    match();
    field_->setFocus(Qt::ShortcutFocusReason);
    if (stale_) list_files();
}

void QuickOpen::close_box() {
    if (isHidden()) return;
    hide();
    if (back_) back_->setFocus(Qt::OtherFocusReason);
    back_ = nullptr;
}

// One listing at a time; a change while it runs lists again when it is in.
void QuickOpen::list_files() {
    if (listing_) return;
    listing_ = true;
    stale_ = false;
    match(); // says it is listing when there is nothing yet to match
    const int generation = generation_;
    core_.call(
        FsFilesParams{}, this, [this, generation](const client::Typed<FsFilesParams>& answer) {
            if (generation != generation_) return;
            listing_ = false;
            files_ = answer ? answer->files : std::vector<std::string>();
            truncated_ = answer && answer->truncated;
            if (stale_ && isVisible()) list_files();
            match();
            if (!answer)
                status_->setText(answer.error().code == ErrorCode::no_project
                                     ? tr("No folder is open — File › Open Folder…")
                                     : tr("Cannot list the project's files: %1")
                                           .arg(QString::fromStdString(answer.error().message)));
            status_->setVisible(!status_->text().isEmpty());
            if (isVisible()) place();
            emit listed();
        });
}

void QuickOpen::list_symbols() {
    if (listing_symbols_) return;
    listing_symbols_ = true;
    const QString file = symbol_file_;
    core_.call(LspSymbolsParams{file.toStdString(), std::nullopt}, this,
               [this, file](const client::Typed<LspSymbolsParams>& answer) {
                   listing_symbols_ = false;
                   symbols_.clear();
                   symbol_names_.clear();
                   symbols_problem_.clear();
                   symbols_for_ = file;
                   if (!answer) {
                       symbols_problem_ = QString::fromStdString(answer.error().message);
                   } else {
                       symbols_ = answer->symbols;
                       for (const SymbolInfo& s : symbols_)
                           symbol_names_.push_back(s.name);
                   }
                   if (isVisible()) match();
                   emit listed();
               });
}

void QuickOpen::match_symbols(const std::string& query) {
    QString status;
    if (symbol_file_.isEmpty()) {
        status = tr("Open a file to go to its symbols");
    } else if (symbols_for_ != symbol_file_) {
        status = tr("Listing the symbols of %1…").arg(symbol_file_);
        list_symbols();
    } else {
        for (const client::FuzzyHit& hit : client::fuzzy_find(symbol_names_, query, max_rows)) {
            const SymbolInfo& symbol = symbols_[hit.index];
            const QString indent(static_cast<int>(std::min<std::uint64_t>(symbol.depth, 8)) * 2,
                                 QLatin1Char(' '));
            auto* item = new QListWidgetItem(
                indent + QString::fromStdString(symbol.name) + QStringLiteral("  — ") +
                QString::fromStdString(symbol.kind) + tr(", line %1").arg(symbol.line));
            item->setData(symbol_line_role, static_cast<qulonglong>(symbol.line));
            item->setData(symbol_column_role, static_cast<qulonglong>(symbol.column));
            item->setToolTip(
                QString::fromStdString(symbol.detail.empty() ? symbol.name : symbol.detail));
            list_->addItem(item);
        }
        if (list_->count() > 0) list_->setCurrentRow(0);
        if (!symbols_problem_.isEmpty())
            status = tr("No symbols: %1").arg(symbols_problem_);
        else if (symbols_.empty())
            status = tr("%1 has no symbols").arg(symbol_file_);
        else if (list_->count() == 0)
            status = tr("No symbol matches “%1”").arg(QString::fromStdString(query));
    }
    status_->setText(status);
    status_->setVisible(!status.isEmpty());
    if (isVisible()) place();
}

void QuickOpen::match() {
    const std::string query = field_->text().toStdString();
    list_->clear();
    if (!query.empty() && query.front() == '@') return match_symbols(query.substr(1));
    for (const client::FuzzyHit& hit : client::fuzzy_find(files_, query, max_rows)) {
        const std::string& path = files_[hit.index];
        auto* item = new QListWidgetItem(QString::fromStdString(path));
        item->setData(marked_runs_role, QVariant::fromValue(runs_for(path, hit.positions)));
        item->setToolTip(item->text());
        list_->addItem(item);
    }
    if (list_->count() > 0) list_->setCurrentRow(0);

    QString status;
    if (files_.empty() && listing_)
        status = tr("Listing the project's files…");
    else if (list_->count() == 0 && !files_.empty())
        status = tr("No file matches “%1”").arg(field_->text());
    else if (truncated_)
        status = tr("Only the first %L1 files are listed").arg(files_.size());
    status_->setText(status);
    status_->setVisible(!status.isEmpty());
    if (isVisible()) place();
}

void QuickOpen::choose() {
    QListWidgetItem* item = list_->currentItem();
    if (!item) return;
    if (item->data(symbol_line_role).isValid()) {
        const qulonglong line = item->data(symbol_line_role).toULongLong();
        const qulonglong column = item->data(symbol_column_role).toULongLong();
        close_box();
        emit place_chosen(symbol_file_, line, column);
        return;
    }
    const QString path = item->text();
    close_box();
    emit file_chosen(path);
}

void QuickOpen::move_selection(int rows) {
    if (list_->count() == 0) return;
    list_->setCurrentRow(std::clamp(list_->currentRow() + rows, 0, list_->count() - 1));
}

// As tall as its rows, up to a dozen, and never past the editor area.
void QuickOpen::place() {
    const int width = std::clamp(over_->width() - 40, std::min(240, over_->width()), max_width);
    const int row =
        list_->sizeHintForRow(0) > 0 ? list_->sizeHintForRow(0) : list_->fontMetrics().height() + 8;
    list_->setFixedHeight(row * std::clamp(list_->count(), 1, max_visible_rows) +
                          2 * list_->frameWidth());
    const int height = std::min(sizeHint().height(), std::max(80, over_->height() - 16));
    setGeometry((over_->width() - width) / 2, 8, width, height);
}

QString QuickOpen::status() const {
    return status_->isVisible() ? status_->text() : QString();
}

QStringList QuickOpen::shown() const {
    QStringList paths;
    for (int row = 0; row < list_->count(); ++row)
        paths << list_->item(row)->text();
    return paths;
}

bool QuickOpen::eventFilter(QObject* watched, QEvent* event) {
    if (watched == over_ && event->type() == QEvent::Resize && isVisible()) place();
    if (watched != field_ || event->type() != QEvent::KeyPress) return false;
    const int page = std::max(1, list_->height() / std::max(1, list_->sizeHintForRow(0)) - 1);
    switch (static_cast<QKeyEvent*>(event)->key()) {
    case Qt::Key_Up:
        move_selection(-1);
        return true;
    case Qt::Key_Down:
        move_selection(1);
        return true;
    case Qt::Key_PageUp:
        move_selection(-page);
        return true;
    case Qt::Key_PageDown:
        move_selection(page);
        return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        choose();
        return true;
    case Qt::Key_Escape:
        close_box();
        return true;
    default:
        return false;
    }
}

} // namespace rio::gui
