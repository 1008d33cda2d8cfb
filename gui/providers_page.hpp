// Settings ▸ Providers (DESIGN §10, issue 15): connecting a model from the app. Choose a
// provider (agent.providers); paste its key (agent.key.set — the page shows only that one is
// stored, as the core never gives a key back; agent.key.clear removes it; a key from the
// environment is said to win); its base URL (agent.options.set base_url); a model from the
// provider's list (agent.models), typed in when the list fails or lacks it; "Use this provider"
// (agent.provider.set, remembered for the next start); and Test (agent.provider.test), which
// makes one tiny real call and says in words what became of it.
#pragma once

#include "protocol/messages.hpp"

#include <QWidget>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace rio::gui {

class CoreClient;

class ProvidersPage : public QWidget {
    Q_OBJECT
public:
    explicit ProvidersPage(CoreClient& core, QWidget* parent = nullptr);

    // Lists the providers again and shows `provider` (by default the one in use) with its key,
    // options and models.
    void refresh(const QString& provider = {});
    // The same, on the first model provider that still needs a key (Connect a model…): echo
    // in use has nothing to set up.
    void refresh_to_connect();
    QString shown_provider() const;

    QComboBox* provider_box() const { return provider_box_; }
    QLabel* description() const { return description_; }
    QLineEdit* key_field() const { return key_field_; }
    QPushButton* save_key_button() const { return save_key_; }
    QPushButton* remove_key_button() const { return remove_key_; }
    QLabel* key_state() const { return key_state_; }
    QLineEdit* base_url_field() const { return base_url_; }
    QComboBox* model_box() const { return model_box_; }
    QLabel* model_state() const { return model_state_; }
    QComboBox* wire_box() const { return wire_box_; }
    QPushButton* test_button() const { return test_; }
    QLabel* test_result() const { return test_result_; }
    QPushButton* use_button() const { return use_; }
    QComboBox* plan_provider_box() const { return plan_provider_box_; }
    QLineEdit* plan_model_field() const { return plan_model_field_; }
    QPushButton* plan_apply_button() const { return plan_apply_; }
    QLabel* plan_model_state() const { return plan_model_state_; }

signals:
    void shown();         // a provider's key state and options are on the page
    void models_listed(); // the model list came back, or said why not
    void tested();        // Test's answer is on the page

private:
    void show_providers(const ProvidersResult& list, const QString& wanted);
    void show_provider();
    void show_key(const ProviderInfo& info);
    void show_options(const OptionsResult& options);
    void load_models();
    void save_key();
    void remove_key();
    void set_option(const char* name, const QString& value);
    void apply_base_url();
    void apply_model();
    void show_wire(const OptionInfo& wire);
    void test();
    void use();
    // DESIGN §20: who answers in plan mode; the provider in use takes over at approval.
    void show_plan_model();
    void set_plan_model();
    enum class Tone { plain, ok, failed };
    // What the last action did (Test's answer, a refusal), under the form.
    void say(const QString& text, Tone tone);
    std::optional<ProviderInfo> info() const; // the shown provider's entry in the list

    CoreClient& core_;
    QComboBox* provider_box_;
    QLabel* description_;
    QWidget* key_row_ = nullptr;         // the key field and its buttons
    std::vector<QWidget*> network_rows_; // key, base URL and model: not for echo
    QLineEdit* key_field_;
    QPushButton* save_key_;
    QPushButton* remove_key_;
    QLabel* key_state_;
    QLineEdit* base_url_;
    QComboBox* model_box_;
    QLabel* model_state_;
    // The API an OpenAI-compatible provider speaks (issue 49); only for a provider with a
    // `wire` option.
    QLabel* wire_label_;
    QComboBox* wire_box_;
    QPushButton* test_;
    QLabel* test_result_;
    QPushButton* use_;
    QComboBox* plan_provider_box_;
    QLineEdit* plan_model_field_;
    QPushButton* plan_apply_;
    QLabel* plan_model_state_;
    ProvidersResult list_;
    QString last_shown_;   // the provider the page showed last
    QString base_url_set_; // what the core has as the base URL option ("" for the default)
    QString model_set_;    // the model in effect
};

} // namespace rio::gui
