#include "gui/marked_text.hpp"

#include <QApplication>
#include <QPainter>
#include <algorithm>

namespace rio::gui {
namespace {

bool continues_a_character(std::string_view utf8, std::size_t at) {
    return at < utf8.size() && (static_cast<unsigned char>(utf8[at]) & 0xC0) == 0x80;
}

QString text_of(std::string_view utf8, std::size_t from, std::size_t to) {
    return QString::fromUtf8(utf8.data() + from, static_cast<qsizetype>(to - from));
}

} // namespace

MarkedRuns mark_bytes(std::string_view utf8,
                      const std::vector<std::pair<std::size_t, std::size_t>>& marked, bool dim) {
    MarkedRuns runs;
    std::size_t at = 0;
    for (auto [start, end] : marked) {
        start = std::clamp(start, at, utf8.size());
        end = std::clamp(end, start, utf8.size());
        while (start > at && continues_a_character(utf8, start))
            --start;
        while (continues_a_character(utf8, end))
            ++end;
        if (start == end) continue;
        if (start > at) runs.append(MarkedRun{text_of(utf8, at, start), false, dim});
        // Ranges that touch make one run: "main" matched letter by letter is one word.
        if (start == at && !runs.isEmpty() && runs.last().marked)
            runs.last().text += text_of(utf8, start, end);
        else
            runs.append(MarkedRun{text_of(utf8, start, end), true, dim});
        at = end;
    }
    if (at < utf8.size()) runs.append(MarkedRun{text_of(utf8, at, utf8.size()), false, dim});
    return runs;
}

QSize MarkedTextDelegate::sizeHint(const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setHeight(std::max(size.height(), QFontMetrics(option.font).height() + 6));
    return size;
}

void MarkedTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
    const QVariant data = index.data(marked_runs_role);
    if (!data.canConvert<MarkedRuns>()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    item.text.clear(); // the background, the selection and the focus, drawn as usual
    const QWidget* widget = item.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);

    const QRect area = style->subElementRect(QStyle::SE_ItemViewItemText, &item, widget);
    const QPalette::ColorGroup group =
        item.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    const bool selected = item.state & QStyle::State_Selected;
    const QColor plain =
        item.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    QColor dim = plain;
    dim.setAlphaF(0.65f);
    const QColor accent = selected ? plain : item.palette.color(group, QPalette::Link);

    painter->save();
    painter->setClipRect(area);
    int x = area.left() + 3;
    for (const MarkedRun& run : data.value<MarkedRuns>()) {
        QFont font = item.font;
        font.setBold(run.marked);
        painter->setFont(font);
        painter->setPen(run.marked ? accent : run.dim ? dim : plain);
        const QRect room(x, area.top(), std::max(0, area.right() - x), area.height());
        painter->drawText(room, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, run.text);
        x += QFontMetrics(font).horizontalAdvance(run.text);
        if (x > area.right()) break;
    }
    painter->restore();
}

} // namespace rio::gui
