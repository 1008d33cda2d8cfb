// The mode a new core starts in (DESIGN §9, issue 15): the user's default_mode in their
// config.json, shipped plan; `rio-core --mode` for one run. These start the core as a user
// would, without the `--mode build` the other suites' fixture adds.
#include "tests/support/core_process.hpp"

#include <gtest/gtest.h>

namespace rio::test {
namespace {

class StartModeE2E : public ::testing::Test {
protected:
    // A core on private folders, with `config` as the user's config.json (none when empty).
    std::unique_ptr<CoreProcess> start(const std::string& config,
                                       std::vector<std::string> args = {}) {
        if (!config.empty()) write_bytes(home_ / "config/rio/config.json", config);
        args.insert(args.end(), {"--provider", "echo"});
        return std::make_unique<CoreProcess>(
            args,
            std::vector<std::string>{"XDG_CONFIG_HOME=" + (home_ / "config").string(),
                                     "XDG_DATA_HOME=" + (home_ / "data").string(),
                                     "XDG_STATE_HOME=" + (home_ / "state").string(),
                                     "XDG_RUNTIME_DIR=" + (home_ / "runtime").string()},
            core_binary(), CoreMode::configured);
    }

    static std::string mode_of(CoreProcess& core) {
        return core.stdio().request("agent.status")["result"]["mode"];
    }

    static std::vector<std::string> tools_of(CoreProcess& core) {
        std::vector<std::string> names;
        const Json tools = core.stdio().request("agent.tools");
        for (const Json& t : tools["result"]["tools"])
            names.push_back(t["name"]);
        return names;
    }

    TempDir home_;
};

TEST_F(StartModeE2E, AFreshCoreWithoutConfigStartsInPlanMode) {
    auto core = start("");
    core->stdio().send_raw("{\"id\": \"first\", \"op\": \"session.hello\"}\n");
    EXPECT_EQ(core->stdio().next_message().value("id", Json()), "first")
        << "the core says nothing before it is asked: the start mode is no event";
    EXPECT_EQ(mode_of(*core), "plan");
    std::vector<std::string> tools = tools_of(*core);
    EXPECT_EQ(std::count(tools.begin(), tools.end(), "edit_file"), 0) << "no write tools offered";
    EXPECT_EQ(std::count(tools.begin(), tools.end(), "present_plan"), 1);
    EXPECT_EQ(core->stderr_text().find("default_mode"), std::string::npos) << "nothing to warn of";
}

TEST_F(StartModeE2E, DefaultModeBuildInTheConfigStartsInBuildMode) {
    auto core = start("// mine\n{\"provider\": \"echo\", \"default_mode\": \"build\",}\n");
    EXPECT_EQ(mode_of(*core), "build");
    std::vector<std::string> tools = tools_of(*core);
    EXPECT_EQ(std::count(tools.begin(), tools.end(), "edit_file"), 1);
}

TEST_F(StartModeE2E, DefaultModePlanInTheConfigStartsInPlanMode) {
    auto core = start(R"({"default_mode": "plan"})");
    EXPECT_EQ(mode_of(*core), "plan");
}

TEST_F(StartModeE2E, ABadDefaultModeIsAWarningAndPlanMode) {
    auto core = start(R"({"default_mode": "yolo"})");
    EXPECT_EQ(mode_of(*core), "plan") << "the safe mode";
    std::string said = core->wait_for_stderr("default_mode");
    EXPECT_NE(said.find("config.json: default_mode must be \"plan\" or \"build\", not \"yolo\"; "
                        "starting in plan mode"),
              std::string::npos)
        << said;
}

TEST_F(StartModeE2E, AnUnreadableConfigIsAWarningAndPlanMode) {
    auto core = start("{\"default_mode\": \"build\"");
    EXPECT_EQ(mode_of(*core), "plan");
    std::string said = core->wait_for_stderr("starting in plan mode");
    EXPECT_NE(said.find("config.json"), std::string::npos) << said;
}

TEST_F(StartModeE2E, TheModeFlagWinsOverTheConfigForThisRun) {
    auto plan = start(R"({"default_mode": "build"})", {"--mode", "plan"});
    EXPECT_EQ(mode_of(*plan), "plan");
    auto build = start(R"({"default_mode": "plan"})", {"--mode", "build"});
    EXPECT_EQ(mode_of(*build), "build");
    EXPECT_EQ(read_bytes(home_ / "config/rio/config.json"), R"({"default_mode": "plan"})")
        << "a run's mode is not saved";
}

TEST_F(StartModeE2E, AnUnknownModeFlagIsRefusedAtStart) {
    auto core = start("", {"--mode", "review"});
    std::optional<int> code = core->wait_exit();
    ASSERT_TRUE(code.has_value()) << "it exits";
    EXPECT_NE(*code, 0);
    EXPECT_NE(core->stderr_text().find("--mode"), std::string::npos) << core->stderr_text();
}

} // namespace
} // namespace rio::test
