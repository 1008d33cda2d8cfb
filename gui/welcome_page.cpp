#include "gui/welcome_page.hpp"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

constexpr int max_recent_folders = 5;

QLabel* welcome_paragraph(const QString& text) {
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    return label;
}

QPushButton* welcome_link(const QString& text, const QString& tip) {
    auto* button = new QPushButton(text);
    button->setFlat(true);
    button->setAutoDefault(false);
    button->setToolTip(tip);
    button->setCursor(Qt::PointingHandCursor);
    button->setStyleSheet(QStringLiteral("QPushButton { text-align: left; padding: 2px 4px; "
                                         "color: palette(link); border: none; }"
                                         "QPushButton:hover, QPushButton:focus "
                                         "{ text-decoration: underline; }"));
    return button;
}

} // namespace

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent), open_folder_(new QPushButton(tr("Open Folder…"))),
      connect_(new QPushButton(tr("Connect a model…"))),
      connect_note_(welcome_paragraph(tr("No model is connected yet: replies come from echo, which "
                                         "only repeats your messages."))),
      manual_(welcome_link(tr("Read the manual (F1)"), tr("rio's manual, in this window"))),
      recent_heading_(new QLabel(tr("Recent folders"))), recent_list_(new QVBoxLayout) {
    setObjectName(QStringLiteral("welcome"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    open_folder_->setAutoDefault(false);
    connect_->setAutoDefault(false);
    QFont heading = font();
    heading.setPointSizeF(heading.pointSizeF() * 1.8);
    heading.setBold(true);
    auto* title = new QLabel(QStringLiteral("rio"));
    title->setFont(heading);
    QFont bold = font();
    bold.setBold(true);
    recent_heading_->setFont(bold);
    auto* modes_heading = new QLabel(tr("Three modes (Shift+Tab in the chat moves between them)"));
    modes_heading->setFont(bold);

    auto* column = new QVBoxLayout;
    column->setSpacing(10);
    column->addWidget(title);
    column->addWidget(
        welcome_paragraph(tr("A code editor with an agent that plans before it changes "
                             "anything: you read the plan, comment on it, approve it, "
                             "and review each change it makes.")));
    column->addWidget(open_folder_, 0, Qt::AlignLeft);
    column->addWidget(recent_heading_);
    recent_list_->setSpacing(0);
    column->addLayout(recent_list_);
    column->addWidget(connect_note_);
    column->addWidget(connect_, 0, Qt::AlignLeft);
    column->addSpacing(6);
    column->addWidget(modes_heading);
    column->addWidget(welcome_paragraph(
        tr("<b>Plan</b> — the agent reads the project and presents a plan; nothing "
           "changes until you approve it.")));
    column->addWidget(welcome_paragraph(
        tr("<b>Review</b> — the agent edits, and you approve each edit side by side.")));
    column->addWidget(welcome_paragraph(
        tr("<b>Auto</b> — edits are applied as they come, each one undoable; commands still "
           "ask.")));
    column->addWidget(manual_, 0, Qt::AlignLeft);

    // A readable column in the middle, whatever the width.
    auto* middle = new QWidget;
    middle->setMaximumWidth(520);
    middle->setLayout(column);
    // In a scroll area: with the terminal panel open the page may be short, and a short page
    // scrolls rather than squeezing its paragraphs into each other.
    auto* page = new QWidget;
    auto* scroll = new QScrollArea;
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(page);
    scroll->viewport()->setBackgroundRole(QPalette::Base);
    page->setBackgroundRole(QPalette::Base);
    auto* frame = new QVBoxLayout(this);
    frame->setContentsMargins(0, 0, 0, 0);
    frame->addWidget(scroll);
    auto* outer = new QHBoxLayout(page);
    outer->setContentsMargins(24, 24, 24, 24);
    outer->addStretch(1);
    auto* vertical = new QVBoxLayout;
    vertical->addStretch(1);
    vertical->addWidget(middle);
    vertical->addStretch(2);
    outer->addLayout(vertical, 4);
    outer->addStretch(1);

    connect(open_folder_, &QPushButton::clicked, this, &WelcomePage::open_folder_requested);
    connect(connect_, &QPushButton::clicked, this, &WelcomePage::connect_requested);
    connect(manual_, &QPushButton::clicked, this, &WelcomePage::manual_requested);
    set_recent({});
    set_model_connected(true);
}

void WelcomePage::set_recent(const QStringList& roots) {
    while (QLayoutItem* item = recent_list_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int shown = 0;
    for (const QString& root : roots) {
        if (shown == max_recent_folders) break;
        if (!QDir(root).exists()) continue;
        const QString name = root.section(QLatin1Char('/'), -1);
        QPushButton* button = welcome_link(name + QStringLiteral("  —  ") + root, root);
        connect(button, &QPushButton::clicked, this, [this, root] { emit recent_requested(root); });
        recent_list_->addWidget(button);
        ++shown;
    }
    recent_heading_->setVisible(shown > 0);
}

void WelcomePage::set_model_connected(bool connected) {
    connect_->setVisible(!connected);
    connect_note_->setVisible(!connected);
}

QList<QPushButton*> WelcomePage::recent_buttons() const {
    QList<QPushButton*> buttons;
    for (int i = 0; i < recent_list_->count(); ++i)
        if (auto* button = qobject_cast<QPushButton*>(recent_list_->itemAt(i)->widget()))
            buttons << button;
    return buttons;
}

} // namespace rio::gui
