#include "gui/trust_bar.hpp"

#include "client/trust_question.hpp"
#include "gui/core_client.hpp"
#include "gui/theme.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace rio::gui {
namespace {

// What the question is about: the files as they are, and the servers waiting for trust.
std::string hashes(const ProjectTrustState& trust) {
    std::string out;
    for (const TrustedFile& f : trust.files)
        out += f.path + "=" + f.sha256 + ";";
    for (const auto* names : {&trust.language_servers, &trust.mcp_servers})
        for (const std::string& name : *names)
            out += name + ";";
    return out;
}

} // namespace

TrustBar::TrustBar(CoreClient& core, QWidget* parent)
    : QFrame(parent), core_(core), text_(new QLabel), trust_(new QPushButton(tr("&Trust"))),
      dismiss_(new QPushButton(tr("&Not now"))) {
    setObjectName(QStringLiteral("trust_bar"));
    setFrameShape(QFrame::StyledPanel);
    follow_theme(this, [this] {
        const ThemeColours c = theme_colours();
        setStyleSheet(QStringLiteral("#trust_bar { background: %1; border-bottom: 1px solid %2; }"
                                     "#trust_bar QLabel { color: %3; }")
                          .arg(c.attention_background.name(), c.attention_border.name(),
                               c.attention_text.name()));
    });
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::PlainText);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->addWidget(text_, 1);
    layout->addWidget(trust_);
    layout->addWidget(dismiss_);
    hide();

    // The answer names the files as the bar showed them: if they changed since, the core
    // trusts nothing and says project.trust with what they are now, which the bar shows.
    connect(trust_, &QPushButton::clicked, this, [this] {
        core_.call(client::trust_answer(showing_), this,
                   [this](const client::Typed<ProjectTrustSetParams>& state) {
                       if (state) show_trust(*state);
                   });
    });
    connect(dismiss_, &QPushButton::clicked, this, [this] {
        dismissed_ = shown_;
        hide();
    });
    connect(&core_, &CoreClient::core_event, this, [this](const client::CoreEvent& event) {
        if (auto* trust = std::get_if<ProjectTrustState>(&event)) show_trust(*trust);
    });
}

void TrustBar::refresh() {
    core_.call(ProjectTrustGetParams{}, this,
               [this](const client::Typed<ProjectTrustGetParams>& state) {
                   if (!state) return hide(); // no project
                   show_trust(*state);
               });
}

void TrustBar::show_trust(const ProjectTrustState& state) {
    shown_ = hashes(state);
    if (!client::trust_matters(state) || shown_ == dismissed_) return hide();
    showing_ = state;
    QStringList grants;
    for (const std::string& reason : client::trust_reasons(state))
        grants << QString::fromStdString(reason);
    text_->setText(grants.join(QLatin1Char(' ')) + tr(" Trust this project?"));
    show();
}

} // namespace rio::gui
