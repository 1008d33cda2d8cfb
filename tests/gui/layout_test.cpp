// Issue 46: nothing a person clicks is cut off or outside the window, through a day's flow
// (a plan, its revision, a command with a long argument, its card and the reply), on the
// screen ctest gives it: the offscreen default (1440×900), a 1366×768 laptop and 1920×1080.
#include "gui/approval_bar.hpp"
#include "gui/chat_dock.hpp"
#include "gui/main_window.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_view.hpp"
#include "tests/gui/agent_support.hpp"
#include "tests/gui/gui_support.hpp"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QComboBox>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QTest>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace layout {

// The controls that are shown and cannot be used whole: outside the window, or cut by what
// holds them. Inside a scroll area only the sideways cut counts: scrolling down reaches the rest.
QStringList clipped_controls(QWidget& window) {
    QStringList clipped;
    const QRect inside = window.rect();
    for (QWidget* w : window.findChildren<QWidget*>()) {
        const bool control = qobject_cast<QAbstractButton*>(w) || qobject_cast<QLineEdit*>(w) ||
                             qobject_cast<QComboBox*>(w);
        if (!control || !w->isVisible() || w->width() <= 0) continue;
        // A side panel behind another's tab is "visible", off in a corner nobody sees.
        bool behind = false;
        for (QWidget* up = w->parentWidget(); up && up != &window; up = up->parentWidget())
            if (qobject_cast<QDockWidget*>(up) && up->visibleRegion().isEmpty()) behind = true;
        if (behind) continue;
        const QString name = QStringLiteral("%1 “%2” %3")
                                 .arg(QString::fromLatin1(w->metaObject()->className()),
                                      w->accessibleName().isEmpty()
                                          ? (qobject_cast<QAbstractButton*>(w)
                                                 ? qobject_cast<QAbstractButton*>(w)->text()
                                                 : w->objectName())
                                          : w->accessibleName())
                                 .arg(QStringLiteral("at %1,%2 %3×%4")
                                          .arg(w->mapTo(&window, QPoint(0, 0)).x())
                                          .arg(w->mapTo(&window, QPoint(0, 0)).y())
                                          .arg(w->width())
                                          .arg(w->height()));
        const QRect place(w->mapTo(&window, QPoint(0, 0)), w->size());
        QAbstractScrollArea* scroller = nullptr;
        for (QWidget* up = w->parentWidget(); up && up != &window; up = up->parentWidget())
            if (auto* area = qobject_cast<QAbstractScrollArea*>(up); area && area != w) {
                scroller = area;
                break;
            }
        if (scroller) {
            const QWidget* view = scroller->viewport();
            const int left = w->mapTo(view, QPoint(0, 0)).x();
            if (left < 0 || left + w->width() > view->width()) clipped << name + " (sideways)";
            continue;
        }
        if (!inside.contains(place)) {
            clipped << name + " (outside the window)";
            continue;
        }
        if (w->visibleRegion().boundingRect() != w->rect()) clipped << name + " (cut)";
    }
    return clipped;
}

bool nothing_clipped(QWidget& window, const char* when) {
    if (!drain_events() || !drain_events()) return false;
    const QStringList clipped = clipped_controls(window);
    if (clipped.isEmpty()) return true;
    qWarning("%s: %s", when, qPrintable(clipped.join(QStringLiteral("; "))));
    return false;
}

} // namespace layout

class LayoutTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(keep_home_private(home_)); }

    void nothing_is_clipped_through_a_plan_and_a_command() {
        const QSize screen = QGuiApplication::primaryScreen()->size();
        qInfo("screen %d×%d", screen.width(), screen.height());
        TempProject project;
        project.write("greet.py", "print('hi')\n");
        const std::string ys(250, 'y');
        Agent s(
            project,
            Json::array({plan_step("Add a shout flag", "1. Give `greeting` a **shout** option\n"),
                         plan_step("Add a shout flag to greet.py and a test that the shouted "
                                   "greeting is upper case everywhere",
                                   "1. Give `greeting` a **shout** option\n2. Test it\n"),
                         step({tool("run_command", {{"argv", {"echo", ys}}})}),
                         text_step("Finished: `src/averyveryverylongdirectoryname/and/"
                                   "anotherveryveryverylongdirectoryname/file.py` shouts.")}));
        QVERIFY(s.up_to_plan_shown(true));
        const QSize window = s.window.size();
        QVERIFY(window.width() <= screen.width() && window.height() <= screen.height());
        QVERIFY(layout::nothing_clipped(s.window, "a plan"));

        click(s.bar().reject_button());
        QTest::keyClick(s.bar().reason_field(), Qt::Key_Return);
        QTRY_VERIFY(s.plan_view()->header_text().contains(QStringLiteral("upper case")));
        QVERIFY(layout::nothing_clipped(s.window, "a revised plan"));
        QCOMPARE(s.window.size(), window);

        QTest::keyClick(s.plan_view()->body(), Qt::Key_Return, Qt::ControlModifier); // approve
        QVERIFY(s.proposal_shown(QStringLiteral("Run this command?")));
        QVERIFY(layout::nothing_clipped(s.window, "a command asked"));
        QCOMPARE(s.window.size(), window);

        click(s.bar().approve_button());
        QTRY_VERIFY(!s.composer().busy());
        QVERIFY(layout::nothing_clipped(s.window, "after the command"));
        QCOMPARE(s.window.size(), window);
    }

private:
    QTemporaryDir home_;
};

QTEST_MAIN(LayoutTest)
#include "layout_test.moc"
