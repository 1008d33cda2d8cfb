#include "gui/providers_page.hpp"

#include "gui/core_client.hpp"
#include "gui/theme.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rio::gui {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QLabel* note_label() {
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// Several widgets in one row of the form; the one at `stretch` takes the room left.
QWidget* row_of(std::initializer_list<QWidget*> widgets, int stretch) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    int index = 0;
    for (QWidget* widget : widgets)
        layout->addWidget(widget, index++ == stretch ? 1 : 0);
    return row;
}

QString entry_text(const ProviderInfo& p) {
    QString text = qs(p.name);
    if (p.active) return text + ProvidersPage::tr("  (in use)");
    if (!p.ready) return text + ProvidersPage::tr("  (no key)");
    return text;
}

QString key_words(const ProviderInfo& p) {
    if (p.key == KeySource::env)
        return ProvidersPage::tr("Using the key in %1 from the environment; while it is set, a key "
                                 "stored here is not used.")
            .arg(qs(p.key_variable.value_or("the environment")));
    if (p.key == KeySource::file)
        return ProvidersPage::tr("A key is stored. rio never shows it again; paste another to "
                                 "replace it.");
    if (!p.ready)
        return ProvidersPage::tr("No key yet: paste one from the provider's console and press "
                                 "Save key.");
    return ProvidersPage::tr("No key stored; none is needed for this base URL.");
}

} // namespace

ProvidersPage::ProvidersPage(CoreClient& core, QWidget* parent)
    : QWidget(parent), core_(core), provider_box_(new QComboBox), description_(note_label()),
      key_field_(new QLineEdit), save_key_(new QPushButton(tr("&Save key"))),
      remove_key_(new QPushButton(tr("R&emove key"))), key_state_(note_label()),
      base_url_(new QLineEdit), model_box_(new QComboBox), model_state_(note_label()),
      wire_label_(new QLabel(tr("AP&I:"))), wire_box_(new QComboBox),
      test_(new QPushButton(tr("&Test"))), test_result_(note_label()),
      use_(new QPushButton(tr("&Use this provider"))), plan_provider_box_(new QComboBox),
      plan_model_field_(new QLineEdit), plan_apply_(new QPushButton(tr("&Apply"))),
      plan_model_state_(note_label()) {
    provider_box_->setAccessibleName(tr("Provider"));
    key_field_->setEchoMode(QLineEdit::Password);
    key_field_->setAccessibleName(tr("API key"));
    key_field_->setClearButtonEnabled(true);
    save_key_->setEnabled(false);
    save_key_->setAutoDefault(false);
    remove_key_->setAutoDefault(false);
    base_url_->setAccessibleName(tr("Base URL"));
    model_box_->setEditable(true);
    model_box_->setInsertPolicy(QComboBox::NoInsert);
    model_box_->setAccessibleName(tr("Model"));
    model_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    wire_box_->setAccessibleName(tr("API"));
    wire_box_->setToolTip(tr("Chat Completions, which every OpenAI-compatible server speaks, or "
                             "OpenAI's Responses API, where its Codex and pro models answer"));
    wire_box_->addItem(QString(), QString()); // automatic: its text says what the model gets
    wire_box_->addItem(tr("Chat Completions"), QStringLiteral("chat"));
    wire_box_->addItem(tr("Responses API"), QStringLiteral("responses"));
    wire_label_->setBuddy(wire_box_);
    test_->setAutoDefault(false);
    test_->setToolTip(tr("Make one small call with this key, base URL and model"));
    use_->setAutoDefault(false);
    use_->setToolTip(tr("Talk to this provider from now on, and at the next start"));
    description_->setForegroundRole(QPalette::PlaceholderText);
    plan_provider_box_->setAccessibleName(tr("Plan mode provider"));
    // Its names whole ("the provider in use"), however wide the model field beside it grows.
    plan_provider_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    plan_provider_box_->setToolTip(tr("Who answers in plan mode; the provider in use takes over "
                                      "when you approve the plan"));
    plan_model_field_->setAccessibleName(tr("Plan mode model"));
    plan_model_field_->setPlaceholderText(tr("its model option"));
    plan_apply_->setAutoDefault(false);

    auto* provider_label = new QLabel(tr("Pro&vider:"));
    provider_label->setBuddy(provider_box_);
    auto* key_label = new QLabel(tr("API &key:"));
    key_label->setBuddy(key_field_);
    auto* url_label = new QLabel(tr("Base U&RL:"));
    url_label->setBuddy(base_url_);
    auto* model_label = new QLabel(tr("Mo&del:"));
    model_label->setBuddy(model_box_);
    key_row_ = row_of({key_field_, save_key_, remove_key_}, 0);
    // A grid, not a QFormLayout: that one sizes a wrapped note for its narrowest width and
    // leaves gaps of empty lines under it.
    auto* grid = new QGridLayout;
    grid->setColumnStretch(1, 1);
    int row = 0;
    const auto add = [&](QLabel* label, QWidget* field) {
        if (label) grid->addWidget(label, row, 0);
        grid->addWidget(field, row++, 1);
    };
    add(provider_label, row_of({provider_box_, use_}, 0));
    add(nullptr, description_);
    add(key_label, key_row_);
    add(nullptr, key_state_);
    add(url_label, base_url_);
    add(model_label, model_box_);
    add(nullptr, model_state_);
    add(wire_label_, wire_box_);
    add(nullptr, row_of({test_, test_result_}, 1));
    auto* plan_label = new QLabel(tr("&Plan with:"));
    plan_label->setBuddy(plan_provider_box_);
    add(plan_label, row_of({plan_provider_box_, plan_model_field_, plan_apply_}, 1));
    add(nullptr, plan_model_state_);
    network_rows_ = {key_label, key_row_,    key_state_, url_label,
                     base_url_, model_label, model_box_, model_state_};
    auto* column = new QVBoxLayout(this);
    column->addLayout(grid);
    column->addStretch(1);

    connect(provider_box_, &QComboBox::activated, this, [this] { show_provider(); });
    connect(key_field_, &QLineEdit::textChanged, this,
            [this](const QString& text) { save_key_->setEnabled(!text.trimmed().isEmpty()); });
    connect(key_field_, &QLineEdit::returnPressed, this, &ProvidersPage::save_key);
    connect(save_key_, &QPushButton::clicked, this, &ProvidersPage::save_key);
    connect(remove_key_, &QPushButton::clicked, this, &ProvidersPage::remove_key);
    connect(base_url_, &QLineEdit::editingFinished, this, &ProvidersPage::apply_base_url);
    // A test's answer was about the URL, model and key it used: one of them edited, it goes.
    const auto forget_test = [this] { test_result_->clear(); };
    connect(base_url_, &QLineEdit::textEdited, this, forget_test);
    connect(model_box_->lineEdit(), &QLineEdit::textEdited, this, forget_test);
    connect(model_box_, &QComboBox::activated, this, forget_test);
    connect(key_field_, &QLineEdit::textEdited, this, forget_test);
    connect(model_box_, &QComboBox::activated, this, &ProvidersPage::apply_model);
    connect(model_box_->lineEdit(), &QLineEdit::editingFinished, this, &ProvidersPage::apply_model);
    connect(wire_box_, &QComboBox::activated, this, [this] {
        test_result_->clear();
        set_option("wire", wire_box_->currentData().toString());
    });
    connect(test_, &QPushButton::clicked, this, &ProvidersPage::test);
    connect(use_, &QPushButton::clicked, this, &ProvidersPage::use);
    connect(plan_apply_, &QPushButton::clicked, this, &ProvidersPage::set_plan_model);
    connect(plan_model_field_, &QLineEdit::returnPressed, this, &ProvidersPage::set_plan_model);
    connect(plan_provider_box_, &QComboBox::activated, this, [this] {
        plan_model_field_->setEnabled(!plan_provider_box_->currentData().toString().isEmpty());
    });
}

QString ProvidersPage::shown_provider() const {
    return provider_box_->currentData().toString();
}

std::optional<ProviderInfo> ProvidersPage::info() const {
    const std::string name = shown_provider().toStdString();
    for (const ProviderInfo& p : list_.providers)
        if (p.name == name) return p;
    return std::nullopt;
}

void ProvidersPage::refresh(const QString& provider) {
    core_.call(ProvidersParams{}, this,
               [this, wanted = provider](const client::Typed<ProvidersParams>& list) {
                   if (!list) return say(qs(list.error().message), Tone::failed);
                   show_providers(*list, wanted);
               });
}

void ProvidersPage::refresh_to_connect() {
    core_.call(ProvidersParams{}, this, [this](const client::Typed<ProvidersParams>& list) {
        if (!list) return say(qs(list.error().message), Tone::failed);
        QString wanted;
        for (const ProviderInfo& p : list->providers) {
            const bool a_model = p.name != "echo" && p.name != "script";
            if (a_model && !p.ready) {
                wanted = qs(p.name);
                break;
            }
        }
        show_providers(*list, wanted);
    });
}

void ProvidersPage::show_providers(const ProvidersResult& list, const QString& wanted) {
    list_ = list;
    const QString keep = wanted.isEmpty() ? qs(list.current) : wanted;
    provider_box_->clear();
    for (const ProviderInfo& p : list.providers) {
        // A script is a file a test or demo names at start; it cannot be chosen here.
        if (p.name == "script" && !p.active) continue;
        provider_box_->addItem(entry_text(p), qs(p.name));
    }
    const int index = provider_box_->findData(keep);
    provider_box_->setCurrentIndex(index >= 0 ? index : 0);
    show_plan_model();
    show_provider();
}

void ProvidersPage::show_plan_model() {
    const std::optional<PlanModel>& planner = list_.plan_model;
    plan_provider_box_->clear();
    plan_provider_box_->addItem(tr("the provider in use"), QString());
    for (const ProviderInfo& p : list_.providers)
        if (p.key != KeySource::not_needed) plan_provider_box_->addItem(qs(p.name), qs(p.name));
    const int index = planner ? plan_provider_box_->findData(qs(planner->provider)) : 0;
    plan_provider_box_->setCurrentIndex(std::max(index, 0));
    plan_model_field_->setText(planner ? qs(planner->model) : QString());
    plan_model_field_->setEnabled(planner.has_value());
    if (!planner)
        return plan_model_state_->setText(
            tr("The provider in use plans too (%1 · %2).").arg(qs(list_.current), qs(list_.model)));
    plan_model_state_->setText(
        tr("%1 · %2 plans; %3 · %4 takes over when you approve a plan.")
            .arg(qs(planner->provider),
                 planner->model.empty() ? tr("its model option") : qs(planner->model),
                 qs(list_.current), qs(list_.model)));
}

void ProvidersPage::set_plan_model() {
    PlanModelSetParams params;
    if (const QString provider = plan_provider_box_->currentData().toString();
        !provider.isEmpty()) {
        params.provider = provider.toStdString();
        params.model = plan_model_field_->text().trimmed().toStdString();
    }
    core_.call(params, this, [this](const client::Typed<PlanModelSetParams>& list) {
        if (!list) return say(qs(list.error().message), Tone::failed);
        list_ = *list;
        show_plan_model();
    });
}

void ProvidersPage::show_provider() {
    const std::optional<ProviderInfo> p = info();
    if (!p) return;
    const bool network = p->key != KeySource::not_needed;
    description_->setText(qs(p->description));
    show_key(*p);
    for (QWidget* widget : network_rows_)
        widget->setVisible(network);
    wire_label_->setVisible(false); // until the options say the provider has a wire
    wire_box_->setVisible(false);
    use_->setEnabled(!p->active && p->ready);
    use_->setText(p->active ? tr("In use") : tr("&Use this provider"));
    use_->setToolTip(p->ready ? tr("Talk to this provider from now on, and at the next start")
                              : tr("Add a key first"));
    if (shown_provider() != last_shown_) test_result_->clear(); // it was about another one
    last_shown_ = shown_provider();
    if (!network) return emit shown();
    const QString provider = shown_provider();
    core_.call(OptionsListParams{provider.toStdString()}, this,
               [this, provider](const client::Typed<OptionsListParams>& options) {
                   if (provider != shown_provider()) return;
                   if (!options) return say(qs(options.error().message), Tone::failed);
                   show_options(*options);
                   emit shown();
               });
    load_models();
}

void ProvidersPage::show_key(const ProviderInfo& p) {
    key_state_->setText(key_words(p));
    key_field_->clear();
    key_field_->setPlaceholderText(p.key == KeySource::file ? tr("•••••••••••••••• (stored)")
                                                            : tr("Paste the API key"));
    remove_key_->setEnabled(p.key == KeySource::file);
}

void ProvidersPage::show_options(const OptionsResult& options) {
    for (const OptionInfo& o : options.options) {
        if (o.name == "base_url") {
            base_url_set_ = o.set ? qs(o.value) : QString();
            base_url_->setText(base_url_set_);
            base_url_->setPlaceholderText(qs(o.value));
        } else if (o.name == "model") {
            model_set_ = qs(o.value);
            model_box_->setEditText(model_set_);
        } else if (o.name == "wire") {
            show_wire(o);
        }
    }
}

// Automatic names the API the model gets, which changes with the model.
void ProvidersPage::show_wire(const OptionInfo& wire) {
    wire_label_->setVisible(true);
    wire_box_->setVisible(true);
    const bool responses = wire.value == "responses";
    wire_box_->setItemText(0, responses ? tr("Automatic: Responses API for this model")
                                        : tr("Automatic: Chat Completions for this model"));
    const int index = wire.set ? wire_box_->findData(qs(wire.value)) : 0;
    wire_box_->setCurrentIndex(std::max(index, 0));
}

void ProvidersPage::load_models() {
    const QString provider = shown_provider();
    model_state_->setText(tr("Asking the provider for its models…"));
    core_.call(
        ModelsParams{provider.toStdString()}, this,
        [this, provider](const client::Typed<ModelsParams>& models) {
            if (provider != shown_provider()) return;
            const QString typed = model_box_->currentText();
            model_box_->clear();
            if (models)
                for (const std::string& id : models->models)
                    model_box_->addItem(qs(id));
            model_box_->setEditText(typed);
            if (!models)
                model_state_->setText(
                    tr("The model list could not be fetched (%1); type a model id.")
                        .arg(qs(models.error().message)));
            else if (model_box_->count() == 1)
                model_state_->setText(tr("1 model listed by the provider; you may also type one."));
            else
                model_state_->setText(tr("%1 models listed by the provider; you may also type one.")
                                          .arg(model_box_->count()));
            emit models_listed();
        });
}

void ProvidersPage::save_key() {
    const QString key = key_field_->text().trimmed();
    if (key.isEmpty()) return;
    const QString provider = shown_provider();
    key_field_->clear(); // the key leaves the window as soon as it is sent
    core_.call(KeySetParams{provider.toStdString(), key.toStdString()}, this,
               [this, provider](const client::Typed<KeySetParams>& set) {
                   if (!set) return say(qs(set.error().message), Tone::failed);
                   refresh(provider);
               });
}

void ProvidersPage::remove_key() {
    const QString provider = shown_provider();
    core_.call(KeyClearParams{provider.toStdString()}, this,
               [this, provider](const client::Typed<KeyClearParams>& cleared) {
                   if (!cleared) return say(qs(cleared.error().message), Tone::failed);
                   refresh(provider);
               });
}

void ProvidersPage::set_option(const char* name, const QString& value) {
    OptionsSetParams params;
    params.provider = shown_provider().toStdString();
    params.name = name;
    params.value = value.toStdString();
    const QString provider = shown_provider();
    core_.call(params, this, [this, provider](const client::Typed<OptionsSetParams>& options) {
        if (provider != shown_provider()) return;
        if (!options) return say(qs(options.error().message), Tone::failed);
        show_options(*options);
    });
}

void ProvidersPage::apply_base_url() {
    const QString url = base_url_->text().trimmed();
    if (url == base_url_set_) return;
    base_url_set_ = url;
    set_option("base_url", url);
    // Another endpoint: its models, and whether it needs a key.
    refresh(shown_provider());
}

void ProvidersPage::apply_model() {
    const QString model = model_box_->currentText().trimmed();
    if (model.isEmpty() || model == model_set_) return;
    model_set_ = model;
    set_option("model", model);
}

void ProvidersPage::test() {
    // Edits still in their fields go first: the core answers in order.
    apply_base_url();
    apply_model();
    const QString provider = shown_provider();
    test_->setEnabled(false);
    say(tr("Testing…"), Tone::plain);
    core_.call(ProviderTestParams{provider.toStdString()}, this,
               [this, provider](const client::Typed<ProviderTestParams>& answer) {
                   test_->setEnabled(true);
                   if (provider != shown_provider()) return;
                   if (!answer)
                       say(QStringLiteral("✗ ") + qs(answer.error().message), Tone::failed);
                   else if (answer->ok)
                       say(QStringLiteral("✓ ") + qs(answer->message), Tone::ok);
                   else
                       say(QStringLiteral("✗ ") + qs(answer->message), Tone::failed);
                   emit tested();
               });
}

void ProvidersPage::use() {
    const QString provider = shown_provider();
    core_.call(ProviderSetParams{provider.toStdString(), true}, this,
               [this, provider](const client::Typed<ProviderSetParams>& list) {
                   if (!list) return say(qs(list.error().message), Tone::failed);
                   show_providers(*list, provider);
               });
}

void ProvidersPage::say(const QString& text, Tone tone) {
    test_result_->setText(text);
    if (tone == Tone::plain) return test_result_->setStyleSheet(QString());
    const ThemeColours colours = theme_colours();
    test_result_->setStyleSheet(
        QStringLiteral("color: %1")
            .arg((tone == Tone::ok ? colours.added_text : colours.error_text).name()));
}

} // namespace rio::gui
