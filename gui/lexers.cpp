#include "gui/lexers.hpp"

#include <QStringList>
#include <Qsci/qscilexerbash.h>
#include <Qsci/qscilexercmake.h>
#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexercss.h>
#include <Qsci/qscilexerdiff.h>
#include <Qsci/qscilexerhtml.h>
#include <Qsci/qscilexerjava.h>
#include <Qsci/qscilexerjavascript.h>
#include <Qsci/qscilexerjson.h>
#include <Qsci/qscilexerlua.h>
#include <Qsci/qscilexermakefile.h>
#include <Qsci/qscilexermarkdown.h>
#include <Qsci/qscilexerproperties.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qscilexerruby.h>
#include <Qsci/qscilexersql.h>
#include <Qsci/qscilexerxml.h>
#include <Qsci/qscilexeryaml.h>

namespace rio::gui {
namespace {

bool one_of(const QString& value, std::initializer_list<const char*> choices) {
    for (const char* choice : choices)
        if (value == QLatin1String(choice)) return true;
    return false;
}

} // namespace

// QScintilla 2.13 has no Rust, Go or TOML lexer; those files stay plain rather than being
// coloured by a lexer that misreads them.
QsciLexer* lexer_for(const QString& path, QObject* parent) {
    const QString name = path.section(QLatin1Char('/'), -1).toLower();
    const qsizetype dot = name.lastIndexOf(QLatin1Char('.'));
    const QString ext = dot > 0 ? name.mid(dot + 1) : QString();

    if (name == QLatin1String("cmakelists.txt") || ext == QLatin1String("cmake"))
        return new QsciLexerCMake(parent);
    if (one_of(name, {"makefile", "gnumakefile"}) || one_of(ext, {"mk", "mak"}))
        return new QsciLexerMakefile(parent);
    if (one_of(ext, {"c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "inl",
                     "m", "mm"}))
        return new QsciLexerCPP(parent);
    if (one_of(ext, {"py", "pyi", "pyw"})) return new QsciLexerPython(parent);
    if (one_of(ext, {"js", "mjs", "cjs", "jsx", "ts", "tsx", "mts", "cts"}))
        return new QsciLexerJavaScript(parent);
    if (one_of(ext, {"json", "jsonl"})) return new QsciLexerJSON(parent);
    if (one_of(ext, {"md", "markdown"})) return new QsciLexerMarkdown(parent);
    if (one_of(ext, {"sh", "bash", "zsh", "ksh"}) ||
        one_of(name, {".bashrc", ".profile", ".bash_profile", ".zshrc"}))
        return new QsciLexerBash(parent);
    if (one_of(ext, {"yaml", "yml"}) || name == QLatin1String(".clang-format"))
        return new QsciLexerYAML(parent);
    if (one_of(ext, {"html", "htm", "xhtml"})) return new QsciLexerHTML(parent);
    if (one_of(ext, {"css", "qss"})) return new QsciLexerCSS(parent);
    if (one_of(ext, {"xml", "svg", "ui", "qrc", "xsd"})) return new QsciLexerXML(parent);
    if (one_of(ext, {"java", "kt"})) return new QsciLexerJava(parent);
    if (ext == QLatin1String("lua")) return new QsciLexerLua(parent);
    if (ext == QLatin1String("rb")) return new QsciLexerRuby(parent);
    if (ext == QLatin1String("sql")) return new QsciLexerSQL(parent);
    if (one_of(ext, {"diff", "patch"})) return new QsciLexerDiff(parent);
    if (one_of(ext, {"ini", "cfg", "conf", "properties"}) ||
        one_of(name, {".gitignore", ".gitattributes", ".editorconfig"}))
        return new QsciLexerProperties(parent);
    return nullptr;
}

} // namespace rio::gui
