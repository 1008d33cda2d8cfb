#include "gui/turn_summary.hpp"

#include "gui/push_button.hpp"
#include "gui/theme.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace rio::gui {

TurnSummary::TurnSummary(std::uint64_t turn, QWidget* parent)
    : QFrame(parent), turn_(turn), label_(new QLabel),
      undo_(push_button(tr("Undo this turn"),
                        tr("Put back every file this turn changed, as it was before"))) {
    follow_theme(label_, [this] {
        label_->setStyleSheet(
            QStringLiteral("QLabel { color: %1; }").arg(theme_colours().muted_text.name()));
    });
    label_->setTextFormat(Qt::PlainText);
    label_->setWordWrap(true);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(8);
    row->addWidget(label_, 1);
    row->addWidget(undo_);
    connect(undo_, &QPushButton::clicked, this, &TurnSummary::undo_requested);
}

void TurnSummary::show_turn(int files, const QString& usage) {
    files_ = files;
    QStringList parts;
    if (files == 1) parts << tr("1 file changed");
    if (files > 1) parts << tr("%1 files changed").arg(files);
    if (!usage.isEmpty()) parts << usage;
    label_->setText(parts.join(QStringLiteral(" · ")));
    undo_->setVisible(files > 0);
}

void TurnSummary::set_undo(bool possible, bool done, const QString& why) {
    undo_->setEnabled(possible);
    undo_->setText(done ? tr("Undone") : tr("Undo this turn"));
    undo_->setToolTip(possible ? tr("Put back every file this turn changed, as it was before")
                               : why);
    undo_->setVisible(files_ > 0);
}

QString TurnSummary::text() const {
    return label_->text();
}

} // namespace rio::gui
