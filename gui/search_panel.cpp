#include "gui/search_panel.hpp"

#include "gui/centre_area.hpp"
#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/main_window.hpp"
#include "gui/marked_text.hpp"
#include "gui/theme.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <tuple>

namespace rio::gui {
namespace {

// A panel lists far more than the agent's 200; past this, narrowing the search is the answer.
constexpr std::uint64_t max_matches = 2000;
// Searching starts this long after the last keystroke (Enter does not wait).
constexpr int pause_ms = 300;

constexpr int path_role = Qt::UserRole;
constexpr int line_role = Qt::UserRole + 1;
constexpr int column_role = Qt::UserRole + 2;
constexpr int length_role = Qt::UserRole + 3;

QCheckBox* toggle(const QString& text, QWidget* parent) {
    auto* box = new QCheckBox(text, parent);
    box->setFocusPolicy(Qt::TabFocus);
    return box;
}

QTreeWidgetItem* file_item(const std::string& path, int matches) {
    auto* item = new QTreeWidgetItem;
    const QString text = QString::fromStdString(path);
    item->setText(0, text);
    item->setToolTip(0, text);
    item->setData(0, path_role, text);
    const std::size_t slash = path.rfind('/');
    const std::size_t name = slash == std::string::npos ? 0 : slash + 1;
    MarkedRuns runs{MarkedRun{QString::fromStdString(path.substr(name)), false, false}};
    if (name > 0)
        runs.append(MarkedRun{
            QStringLiteral("  ") + QString::fromStdString(path.substr(0, name - 1)), false, true});
    runs.append(MarkedRun{QStringLiteral("  (%1)").arg(matches), false, true});
    item->setData(0, marked_runs_role, QVariant::fromValue(runs));
    return item;
}

// "12: the line", the line without its indentation, the match marked.
QTreeWidgetItem* line_item(const std::string& path, const SearchMatchInfo& match) {
    auto* item = new QTreeWidgetItem;
    std::string_view text = match.text;
    const std::size_t indent = std::min(text.find_first_not_of(" \t"), text.size());
    text.remove_prefix(indent);
    const std::size_t start = match.start > indent ? match.start - indent : 0;
    const std::size_t end = match.end > indent ? match.end - indent : 0;
    MarkedRuns runs{MarkedRun{QString::number(match.line) + QStringLiteral(": "), false, true}};
    runs.append(mark_bytes(text, {{start, end}}));
    item->setText(0, QString::number(match.line) + QStringLiteral(": ") +
                         QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
    item->setToolTip(0, QString::fromStdString(match.text));
    item->setData(0, marked_runs_role, QVariant::fromValue(runs));
    item->setData(0, path_role, QString::fromStdString(path));
    item->setData(0, line_role, static_cast<int>(match.line));
    item->setData(0, column_role, static_cast<qlonglong>(match.column));
    item->setData(0, length_role, static_cast<qlonglong>(match.length));
    return item;
}

// "1 file", "2 files": rio ships no translations, so %n would read "file(s)".
QString count(int n, const QString& one, const QString& many) {
    return QStringLiteral("%L1 %2").arg(n).arg(n == 1 ? one : many);
}

// The core's words, as a sentence.
QString search_sentence(const std::string& message) {
    QString text = QString::fromStdString(message);
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    return text;
}

} // namespace

SearchPanel::SearchPanel(MainWindow& window)
    : QDockWidget(tr("Search"), &window), window_(window), pattern_(new QLineEdit),
      regex_(toggle(tr("Regex"), this)), case_(toggle(tr("Match case"), this)),
      glob_(new QLineEdit), status_(new QLabel), results_(new QTreeWidget),
      pause_(new QTimer(this)) {
    setObjectName(QStringLiteral("search"));
    setFeatures(QDockWidget::DockWidgetMovable);
    pattern_->setPlaceholderText(tr("Search the project"));
    pattern_->setAccessibleName(tr("Search for"));
    pattern_->setClearButtonEnabled(true);
    glob_->setPlaceholderText(tr("In files like *.cpp or src/**"));
    glob_->setAccessibleName(tr("Search in files matching"));
    glob_->setClearButtonEnabled(true);
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::PlainText);
    status_->setContentsMargins(2, 2, 2, 2);
    results_->setHeaderHidden(true);
    results_->setColumnCount(1);
    results_->setItemDelegate(new MarkedTextDelegate(results_));
    results_->setUniformRowHeights(true);
    results_->setAccessibleName(tr("Search results"));
    results_->header()->setStretchLastSection(true);

    auto* body = new QWidget(this);
    auto* column = new QVBoxLayout(body);
    column->setContentsMargins(4, 4, 4, 4);
    column->setSpacing(4);
    column->addWidget(pattern_);
    auto* toggles = new QHBoxLayout;
    toggles->addWidget(regex_);
    toggles->addWidget(case_);
    toggles->addStretch(1);
    column->addLayout(toggles);
    column->addWidget(glob_);
    column->addWidget(status_);
    column->addWidget(results_, 1);
    setWidget(body);

    pause_->setSingleShot(true);
    pause_->setInterval(pause_ms);
    connect(pause_, &QTimer::timeout, this, &SearchPanel::search);
    connect(pattern_, &QLineEdit::textEdited, pause_, qOverload<>(&QTimer::start));
    connect(glob_, &QLineEdit::textEdited, pause_, qOverload<>(&QTimer::start));
    connect(pattern_, &QLineEdit::returnPressed, this, &SearchPanel::search);
    connect(glob_, &QLineEdit::returnPressed, this, &SearchPanel::search);
    connect(regex_, &QAbstractButton::toggled, this, &SearchPanel::search);
    connect(case_, &QAbstractButton::toggled, this, &SearchPanel::search);
    connect(results_, &QTreeWidget::itemClicked, this, &SearchPanel::open_result);
    connect(results_, &QTreeWidget::itemActivated, this, &SearchPanel::open_result);
    connect(window_.editors(), &EditorArea::file_opened, this, &SearchPanel::select_pending);
}

QAbstractButton* SearchPanel::regex_toggle() const {
    return regex_;
}

QAbstractButton* SearchPanel::case_toggle() const {
    return case_;
}

void SearchPanel::start(const QString& pattern) {
    show();
    raise();
    if (!pattern.isEmpty()) {
        pattern_->setText(pattern);
        search();
    }
    pattern_->setFocus(Qt::ShortcutFocusReason);
    pattern_->selectAll();
}

void SearchPanel::search() {
    pause_->stop();
    const int generation = ++generation_;
    const QString pattern = pattern_->text();
    if (pattern.isEmpty()) {
        searching_ = false;
        results_->clear();
        show_status(QString(), false);
        return;
    }
    // What was just typed in an editor goes to the core first: open files are searched as
    // they are there.
    EditorArea* editors = window_.editors();
    for (int tab = 0; tab < editors->count(); ++tab)
        if (auto* editor = qobject_cast<CodeEditor*>(editors->widget(tab))) editor->flush_edits();
    FsSearchParams params;
    params.pattern = pattern.toStdString();
    if (regex_->isChecked()) params.regex = true;
    if (!case_->isChecked()) params.ignore_case = true;
    if (!glob_->text().trimmed().isEmpty()) params.glob = glob_->text().trimmed().toStdString();
    params.max_matches = max_matches;
    searching_ = true;
    show_status(tr("Searching…"), false);
    window_.core().call(
        params, this, [this, generation, pattern](const client::Typed<FsSearchParams>& found) {
            if (generation != generation_) return;
            searching_ = false;
            results_->clear();
            if (found) {
                show_results(pattern, *found);
            } else if (found.error().code == ErrorCode::bad_response) {
                show_status(tr("rio-core answered the search in a shape this window does "
                               "not know"),
                            true);
            } else {
                show_status(found.error().code == ErrorCode::no_project
                                ? tr("No folder is open — File › Open Folder…")
                                : search_sentence(found.error().message),
                            true);
            }
            emit searched();
        });
}

void SearchPanel::show_results(const QString& pattern, const FsSearchResult& result) {
    int matches = 0;
    for (const SearchFileMatches& in_file : result.files) {
        QTreeWidgetItem* file = file_item(in_file.path, static_cast<int>(in_file.matches.size()));
        results_->addTopLevelItem(file);
        for (const SearchMatchInfo& match : in_file.matches)
            file->addChild(line_item(in_file.path, match));
        matches += static_cast<int>(in_file.matches.size());
    }
    const int files = static_cast<int>(result.files.size());
    results_->expandAll();
    if (matches == 0) {
        QString text = tr("No results for “%1”").arg(pattern);
        if (!glob_->text().trimmed().isEmpty())
            text += tr(" in files like %1").arg(glob_->text().trimmed());
        show_status(text, false);
    } else if (result.truncated) {
        show_status(tr("Showing the first %L1 matches, in %2 — narrow the search to see the rest")
                        .arg(matches)
                        .arg(count(files, tr("file"), tr("files"))),
                    false);
    } else {
        show_status(tr("%1 in %2")
                        .arg(count(matches, tr("match"), tr("matches")),
                             count(files, tr("file"), tr("files"))),
                    false);
    }
}

void SearchPanel::show_references(const QString& symbol,
                                  const std::vector<SourceLocation>& places) {
    ++generation_; // a search still on its way is not shown over these
    searching_ = false;
    results_->clear();
    // Sorted by path, then line, and grouped by file, as fs.search gives them.
    std::vector<const SourceLocation*> sorted;
    for (const SourceLocation& place : places)
        sorted.push_back(&place);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const SourceLocation* a, const SourceLocation* b) {
                         return std::tie(a->path, a->line) < std::tie(b->path, b->line);
                     });
    FsSearchResult result;
    for (const SourceLocation* place : sorted) {
        SearchMatchInfo match{};
        match.line = place->line;
        match.column = place->column;
        match.text = place->text;
        if (place->end_line == place->line && place->end_column > place->column)
            match.length = place->end_column - place->column;
        match.start = std::min<std::uint64_t>(place->column, place->text.size());
        match.end = std::min<std::uint64_t>(match.start + match.length, place->text.size());
        if (result.files.empty() || result.files.back().path != place->path)
            result.files.push_back(SearchFileMatches{place->path, {}});
        result.files.back().matches.push_back(std::move(match));
    }
    show_results(symbol, result);
    const std::size_t files = result.files.size();
    show_status(
        places.empty()
            ? tr("No references to “%1”").arg(symbol)
            : tr("%1 to “%2” in %3")
                  .arg(count(static_cast<int>(places.size()), tr("reference"), tr("references")),
                       symbol, count(static_cast<int>(files), tr("file"), tr("files"))),
        false);
    show();
    raise();
    emit searched();
}

void SearchPanel::show_status(const QString& text, bool problem) {
    status_->setText(text);
    status_->setStyleSheet(
        problem ? QStringLiteral("color: %1;").arg(theme_colours().error_text.name()) : QString());
    status_->setVisible(!text.isEmpty());
}

QString SearchPanel::status() const {
    return status_->isVisible() ? status_->text() : QString();
}

void SearchPanel::open_result(QTreeWidgetItem* item) {
    if (!item || !item->data(0, line_role).isValid()) return;
    Target target{item->data(0, path_role).toString(), item->data(0, line_role).toInt(),
                  item->data(0, column_role).toLongLong(), item->data(0, length_role).toLongLong()};
    window_.centre()->show_editors();
    EditorArea* editors = window_.editors();
    if (CodeEditor* editor = editors->editor(target.path)) {
        pending_.reset();
        editors->open(target.path); // shows its tab
        editor->select_in_line(target.line, target.column, target.length);
        return;
    }
    pending_ = target;
    editors->open(target.path);
}

void SearchPanel::select_pending(const QString& opened) {
    if (!pending_ || pending_->path != opened) return;
    if (CodeEditor* editor = window_.editors()->editor(opened))
        editor->select_in_line(pending_->line, pending_->column, pending_->length);
    pending_.reset();
}

} // namespace rio::gui
