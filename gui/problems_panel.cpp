#include "gui/problems_panel.hpp"

#include "gui/centre_area.hpp"
#include "gui/code_editor.hpp"
#include "gui/code_navigation.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/editor_diagnostics.hpp"
#include "gui/main_window.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace rio::gui {
namespace {

constexpr int problem_path_role = Qt::UserRole;
constexpr int problem_line_role = Qt::UserRole + 1;
constexpr int problem_column_role = Qt::UserRole + 2;

// A row as tall as its text wrapped to the room the tree gives it: Qt's own measure of a
// wrapped item asks for a rect the tree does not give it, and kept every row one line.
class WrappingRows : public QStyledItemDelegate {
public:
    explicit WrappingRows(QTreeWidget* tree) : QStyledItemDelegate(tree), tree_(tree) {}

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        int depth = 0;
        for (QModelIndex up = index.parent(); up.isValid(); up = up.parent())
            ++depth;
        const int room = tree_->viewport()->width() - tree_->indentation() * (depth + 1);
        item.rect = QRect(0, 0, std::max(room, 40), 1);
        item.features |= QStyleOptionViewItem::WrapText;
        const QStyle* style = tree_->style();
        return style->sizeFromContents(QStyle::CT_ItemViewItem, &item, QSize(), tree_);
    }

private:
    QTreeWidget* tree_;
};

QIcon severity_icon(const Wire<Severity>& severity) {
    static const QColor colours[] = {QColor(0xE5, 0x14, 0x00), QColor(0xBF, 0x88, 0x03),
                                     QColor(0x1A, 0x85, 0xFF)};
    const int index = severity == Severity::error ? 0 : severity == Severity::warning ? 1 : 2;
    QPixmap dot(12, 12);
    dot.fill(Qt::transparent);
    QPainter paint(&dot);
    paint.setRenderHint(QPainter::Antialiasing);
    paint.setBrush(colours[index]);
    paint.setPen(Qt::NoPen);
    paint.drawEllipse(1, 1, 10, 10);
    return QIcon(dot);
}

QString problem_text(const DiagnosticInfo& d) {
    QString text = QString::fromStdString(d.message).section(QLatin1Char('\n'), 0, 0);
    QString where = QStringLiteral("%1:%2").arg(d.line).arg(d.column + 1);
    QString origin = QString::fromStdString(d.source);
    if (!d.code.empty())
        origin +=
            (origin.isEmpty() ? QString() : QStringLiteral(" ")) + QString::fromStdString(d.code);
    return origin.isEmpty() ? QStringLiteral("%1  %2").arg(where, text)
                            : QStringLiteral("%1  %2  [%3]").arg(where, text, origin);
}

} // namespace

ProblemsPanel::ProblemsPanel(MainWindow& window)
    : QDockWidget(tr("Problems"), &window), window_(window), summary_(new QLabel),
      list_(new QTreeWidget) {
    setObjectName(QStringLiteral("problems"));
    setFeatures(QDockWidget::DockWidgetMovable);
    summary_->setContentsMargins(6, 4, 6, 4);
    list_->setColumnCount(1);
    list_->setHeaderHidden(true);
    list_->setAccessibleName(tr("Problems"));
    // A message wraps to the panel's width: cut, "Too few …" said nothing (issue 46).
    list_->setWordWrap(true);
    list_->setItemDelegate(new WrappingRows(list_));
    list_->setTextElideMode(Qt::ElideNone);
    list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    list_->header()->setStretchLastSection(true);
    list_->viewport()->installEventFilter(this); // rows wrap again at a new width
    auto* body = new QWidget(this);
    auto* column = new QVBoxLayout(body);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(summary_);
    column->addWidget(list_);
    setWidget(body);
    show_all();
    connect(list_, &QTreeWidget::itemActivated, this, &ProblemsPanel::open_problem);
    connect(list_, &QTreeWidget::itemClicked, this, &ProblemsPanel::open_problem);
    connect(&window_.core(), &CoreClient::core_event, this, &ProblemsPanel::on_event);
}

bool ProblemsPanel::eventFilter(QObject* watched, QEvent* event) {
    // A tree view keeps the row heights it measured at the width it had; a wrapped row's
    // height changes with the width.
    if (watched == list_->viewport() && event->type() == QEvent::Resize) list_->doItemsLayout();
    return QDockWidget::eventFilter(watched, event);
}

QString ProblemsPanel::summary() const {
    return summary_->text();
}

void ProblemsPanel::reload() {
    window_.core().call(LspDiagnosticsParams{}, this,
                        [this](const client::Typed<LspDiagnosticsParams>& all) {
                            if (!all) return;
                            std::vector<std::string> before;
                            for (const auto& [path, file] : problems_.files())
                                before.push_back(path);
                            problems_.load(*all);
                            for (const std::string& path : before)
                                emit file_changed(QString::fromStdString(path));
                            for (const auto& [path, file] : problems_.files())
                                emit file_changed(QString::fromStdString(path));
                            show_all();
                        });
}

void ProblemsPanel::on_event(const client::CoreEvent& event) {
    if (const auto* changed = std::get_if<LspDiagnosticsEvent>(&event)) {
        problems_.apply(*changed);
        show_all();
        emit file_changed(QString::fromStdString(changed->path));
    } else if (std::holds_alternative<ProjectChangedEvent>(event)) {
        std::vector<std::string> before;
        for (const auto& [path, file] : problems_.files())
            before.push_back(path);
        problems_.clear();
        show_all();
        for (const std::string& path : before)
            emit file_changed(QString::fromStdString(path));
    }
}

void ProblemsPanel::show_all() {
    list_->clear();
    for (const auto& [path, file] : problems_.files()) {
        auto* item = new QTreeWidgetItem(list_);
        const QString name = QString::fromStdString(path);
        item->setText(0, tr("%1 (%2)").arg(name).arg(file.diagnostics.size()));
        item->setToolTip(0, tr("%1, from %2").arg(name, QString::fromStdString(file.server)));
        for (const DiagnosticInfo& d : file.diagnostics) {
            auto* child = new QTreeWidgetItem(item);
            child->setIcon(0, severity_icon(d.severity));
            child->setText(0, problem_text(d));
            child->setToolTip(0, QString::fromStdString(d.severity.name() + ": " + d.message));
            child->setData(0, problem_path_role, name);
            child->setData(0, problem_line_role, static_cast<qulonglong>(d.line));
            child->setData(0, problem_column_role, static_cast<qulonglong>(d.column));
        }
        item->setExpanded(true);
    }
    summary_->setText(QString::fromStdString(problems_.summary()));
    setWindowTitle(problems_.count(Severity::error) > 0
                       ? tr("Problems (%1)").arg(problems_.count(Severity::error))
                       : tr("Problems"));
}

void ProblemsPanel::open_problem(QTreeWidgetItem* item) {
    if (!item || item->data(0, problem_path_role).isNull()) return;
    const QString path = item->data(0, problem_path_role).toString();
    if (path.startsWith(QLatin1Char('/'))) return; // outside the project: shown, not opened
    const auto line = item->data(0, problem_line_role).toULongLong();
    const auto column = item->data(0, problem_column_role).toULongLong();
    window_.navigation()->go_to(path, line, column);
}

} // namespace rio::gui
