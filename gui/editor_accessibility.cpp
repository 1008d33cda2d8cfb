#include "gui/editor_accessibility.hpp"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QWidget>

namespace rio::gui {
namespace {

QAccessibleInterface* light_editor_accessible(const QString&, QObject* object) {
    // With a screen reader running, QScintilla's full text interface is worth its cost.
    if (QAccessible::isActive() || !object || !object->inherits("QsciScintillaBase"))
        return nullptr;
    return new QAccessibleWidget(static_cast<QWidget*>(object), QAccessible::EditableText);
}

} // namespace

void prefer_light_editor_accessibility() {
    // Qt asks the factories installed last first, so this one is asked before QScintilla's.
    static const bool installed = [] {
        QAccessible::installFactory(light_editor_accessible);
        return true;
    }();
    (void)installed;
}

} // namespace rio::gui
