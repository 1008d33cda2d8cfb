// A list row whose text has marked parts: the characters quick open matched, the match in a
// project search's line. The row's text is a few runs, each marked (bold, in the accent
// colour) or dim (a file's folder) or plain; the item keeps its plain text for screen readers.
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStyledItemDelegate>
#include <string_view>
#include <vector>

namespace rio::gui {

struct MarkedRun {
    QString text;
    bool marked = false;
    bool dim = false;
};
using MarkedRuns = QList<MarkedRun>;

// The item data role that holds a row's MarkedRuns.
inline constexpr int marked_runs_role = Qt::UserRole + 100;

// `utf8` cut into runs at the `marked` byte ranges ([start, end) pairs, in order); every run
// gets `dim`. Ranges that fall inside a character widen to the whole character.
MarkedRuns mark_bytes(std::string_view utf8,
                      const std::vector<std::pair<std::size_t, std::size_t>>& marked,
                      bool dim = false);

// Paints the runs of `marked_runs_role` when the item has them, else the item as usual.
class MarkedTextDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    // A little taller than a plain row: a list read while typing.
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace rio::gui

Q_DECLARE_METATYPE(rio::gui::MarkedRuns)
