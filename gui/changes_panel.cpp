#include "gui/changes_panel.hpp"

#include "gui/centre_area.hpp"
#include "gui/compare_view.hpp"
#include "gui/core_client.hpp"
#include "gui/main_window.hpp"

#include <QApplication>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace rio::gui {
namespace {

constexpr int path_role = Qt::UserRole;

// "M  src/main.c", the letter git status --short uses.
QString change_letter(const Wire<GitChange>& change) {
    if (change == GitChange::modified) return QStringLiteral("M");
    if (change == GitChange::added) return QStringLiteral("A");
    if (change == GitChange::deleted) return QStringLiteral("D");
    return QStringLiteral("U");
}

QString head_words(const GitStatusResult& s) {
    if (s.problem) return ChangesPanel::tr("Git: %1").arg(QString::fromStdString(*s.problem));
    if (!s.repository) return ChangesPanel::tr("This folder is not in a git repository.");
    const QString branch = QString::fromStdString(s.branch);
    const QString commit = QString::fromStdString(s.commit);
    if (s.head == GitHead::unborn) return ChangesPanel::tr("%1 · no commit yet").arg(branch);
    if (s.head == GitHead::detached) return ChangesPanel::tr("HEAD detached at %1").arg(commit);
    return QStringLiteral("%1 · %2").arg(branch, commit);
}

// The compare view's hunks: the marks', or every line added for a file HEAD does not have.
std::vector<DiffHunkInfo> compare_hunks(const GitMarksResult& marks) {
    std::vector<DiffHunkInfo> out;
    if (!marks.in_head) {
        const std::string& text = marks.text.value_or(std::string());
        const auto lines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n') +
                                                      (!text.empty() && text.back() != '\n'));
        if (lines > 0) out.push_back({0, 0, 0, lines, std::nullopt});
        return out;
    }
    for (const GitMarkHunk& h : marks.hunks)
        out.push_back({h.a_start, h.a_count, h.b_start, h.b_count, std::nullopt});
    return out;
}

} // namespace

ChangesPanel::ChangesPanel(MainWindow& window)
    : QDockWidget(tr("Changes"), &window), window_(window), summary_(new QLabel),
      list_(new QTreeWidget), compare_view_(new CompareView) {
    setObjectName(QStringLiteral("changes"));
    setFeatures(QDockWidget::DockWidgetMovable);
    summary_->setContentsMargins(6, 4, 6, 4);
    summary_->setWordWrap(true);
    list_->setColumnCount(1);
    list_->setHeaderHidden(true);
    list_->setRootIsDecorated(false);
    list_->setAccessibleName(tr("Changes against HEAD"));
    list_->setTextElideMode(Qt::ElideMiddle);
    auto* body = new QWidget(this);
    auto* column = new QVBoxLayout(body);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(summary_);
    column->addWidget(list_);
    setWidget(body);
    window.centre()->add_view(compare_view_);
    connect(compare_view_, &CompareView::close_requested, this, [this] {
        if (window_.centre()->current_view() == compare_view_) window_.centre()->show_editors();
    });
    const auto open = [this](QTreeWidgetItem* item) {
        if (item) compare(item->data(0, path_role).toString());
    };
    connect(list_, &QTreeWidget::itemActivated, this, open);
    connect(list_, &QTreeWidget::itemClicked, this, open);
    connect(&window.core(), &CoreClient::core_event, this, [this](const client::CoreEvent& event) {
        if (std::holds_alternative<FsChangedEvent>(event) ||
            std::holds_alternative<ProjectChangedEvent>(event))
            reload();
        else if (const auto* buffer = std::get_if<BufferChangedEvent>(&event);
                 buffer && buffer->is(BufferChange::saved))
            reload();
    });
    connect(qApp, &QApplication::applicationStateChanged, this, [this](Qt::ApplicationState s) {
        if (s == Qt::ApplicationActive) reload();
    });
}

QString ChangesPanel::summary() const {
    return summary_->text();
}

void ChangesPanel::reload() {
    if (asking_) {
        again_ = true;
        return;
    }
    asking_ = true;
    again_ = false;
    window_.core().call(GitStatusParams{}, this, [this](const client::Typed<GitStatusParams>& s) {
        asking_ = false;
        if (s)
            show_status(*s);
        else if (s.error().code == ErrorCode::no_project)
            show_status(GitStatusResult{});
        if (again_) reload();
    });
}

void ChangesPanel::show_status(const GitStatusResult& status) {
    list_->clear();
    for (const GitFileInfo& file : status.files) {
        auto* item = new QTreeWidgetItem(list_);
        const QString path = QString::fromStdString(file.path);
        item->setText(0, change_letter(file.change) + QStringLiteral("  ") + path);
        item->setToolTip(
            0, QStringLiteral("%1 — %2").arg(path, QString::fromStdString(file.change.name())));
        item->setData(0, path_role, path);
    }
    QString text = head_words(status);
    if (status.repository && !status.problem)
        text += status.files.empty()       ? tr(" — no changes")
                : status.files.size() == 1 ? tr(" — 1 file changed")
                                           : tr(" — %1 files changed").arg(status.files.size());
    if (status.truncated) text += tr("; more not listed");
    summary_->setText(text);
    setWindowTitle(status.files.empty() ? tr("Changes")
                                        : tr("Changes (%1)").arg(status.files.size()));
    emit reloaded();
}

void ChangesPanel::compare(const QString& path) {
    window_.core().call(
        GitMarksParams{path.toStdString(), true}, this,
        [this, path](const client::Typed<GitMarksParams>& marks) {
            if (!marks) {
                emit message(tr("Cannot compare %1 with HEAD: %2")
                                 .arg(path, QString::fromStdString(marks.error().message)));
                return;
            }
            compare_view_->show_compare(
                path, {tr("Changes — %1 · HEAD | now").arg(path), tr("HEAD"), tr("Now")},
                QString::fromStdString(marks->head_text.value_or(std::string())),
                QString::fromStdString(marks->text.value_or(std::string())), compare_hunks(*marks));
            window_.centre()->show_view(compare_view_);
            compare_view_->setFocus(Qt::OtherFocusReason);
            emit compared();
        });
}

} // namespace rio::gui
