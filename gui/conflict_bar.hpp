// The bar above the editor when the file of a tab with unsaved edits changed on disk (the
// core's buffer.changed `disk_changed`): "greet.py changed on disk since you started editing
// it." Reload takes the disk's text (`buffer.reload`); Keep mine puts the bar away, and the
// next save asks before it replaces the disk's version (the core refuses a plain save then);
// Compare shows the disk's text beside yours in the compare view, the bar staying above it.
// A file without unsaved edits needs no bar: the core brings its buffer along.
#pragma once

#include "client/events.hpp"

#include <QFrame>
#include <QMap>

class QLabel;
class QPushButton;

namespace rio::gui {

class CentreArea;
class CompareView;
class CoreClient;
class EditorArea;

class ConflictBar : public QFrame {
    Q_OBJECT
public:
    ConflictBar(CoreClient& core, EditorArea& editors, CentreArea& centre,
                QWidget* parent = nullptr);

    QString path() const { return shown_; } // the file the bar speaks of; empty when hidden
    bool in_conflict(const QString& path) const { return conflicts_.contains(path); }
    QLabel* text() const { return text_; }
    QPushButton* reload_button() const { return reload_; }
    QPushButton* keep_button() const { return keep_; }
    QPushButton* compare_button() const { return compare_; }
    CompareView* compare_view() const { return compare_view_; }

signals:
    void compared();                   // the compare view shows the disk's text and yours
    void message(const QString& text); // for the status bar: what could not be done

private:
    struct Conflict {
        bool deleted = false; // the file is gone
        bool dirty = true;    // false: the file changed into something rio cannot show
    };
    void on_event(const client::CoreEvent& event);
    void follow(); // the bar for the file on show, if it has a conflict
    QString file_on_show() const;
    void reload();
    void keep();
    void compare();
    void settled(const QString& path); // the conflict is over: no bar, no compare

    CoreClient& core_;
    EditorArea& editors_;
    CentreArea& centre_;
    CompareView* compare_view_;
    QLabel* text_;
    QPushButton* reload_;
    QPushButton* keep_;
    QPushButton* compare_;
    QMap<QString, Conflict> conflicts_;
    QString shown_;
    QString compared_; // the file the compare view shows
};

} // namespace rio::gui
