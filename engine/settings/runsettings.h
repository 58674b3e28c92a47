#pragma once
// Every setting of a run's load, defined once: key, CLI flag, window field, help, default, how its text is read and
// written, and its part of the stored configuration. The CLI, the window's profile form, plans and the configuration
// codec all walk this one table, so a setting added here appears everywhere with the same default and the same limits
// (docs/ARCHITECTURE.md, "One definition of a run's settings"). The target's own fields (URL, method, headers, body,
// TLS, protocol, request mix, script, scraped metrics) are not here, and checks across settings stay in
// RunConfig::validate(), the one authority on a whole configuration.

#include "common/result.h"
#include "run/runconfig.h"

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// Where a plan keeps a setting.
enum class PlanPlace : uint8_t {
    Load, ///< "load" and each level (and a sweep's axis): may differ per level
    Plan, ///< the plan's top level: the same for every run (duration, warm-up, SLOs)
    None, ///< not in plans (where the loaders run is the plan runner's business)
};

/// Which protocol a setting applies to (the CLI refuses it given for another; a profile keeps it).
enum class AppliesTo : uint8_t { Any, Http1, Http2, Multiplexed };

struct RunSetting
{
    std::string_view key {}; ///< the plan's and the window's key, and the word errors name ("connect_timeout")
    std::string_view flags {}; ///< the CLI's, as CLI11 takes them ("-c,--connections"); "" = not on the CLI
    std::string_view label {}; ///< the window's load profile field ("Connect timeout"); "" = not in the window
    std::string_view help {}; ///< one sentence for --help and the window's tooltip
    std::string_view example {}; ///< what the window shows in an empty field ("" = the default)
    PlanPlace plan = PlanPlace::Load;
    AppliesTo appliesTo = AppliesTo::Any;
    bool flag = false; ///< a yes/no setting: a CLI flag without a value, a check box ("true"/"false" as text)
    bool repeatable = false; ///< the CLI takes it several times (each one item of a comma-separated list)
    bool sweepable = false; ///< a plan may sweep it ("sweep": {"axis": key, "values": [...]})
    bool advanced = false; ///< the window keeps it under "More settings" (protocol and timing details)
    /// Reads text (as typed on the command line, in the window or a plan) into the configuration.
    /// The error is a sentence without the setting's name; the caller puts the flag, field or plan
    /// path in front. Empty text reads as the default.
    Status (*read)(RunConfig& config, const std::string& text) = nullptr;
    /// The setting's text in config, as read() takes it back ("10s", "100:200", "" when off).
    std::string (*text)(const RunConfig& config) = nullptr;
    /// Its part of the stored configuration's JSON (wire/configcodec.h), and back; a missing key
    /// keeps what config has, a bad value is an error naming the key.
    void (*put)(nlohmann::ordered_json& j, const RunConfig& config) = nullptr;
    Status (*get)(const nlohmann::ordered_json& j, RunConfig& config) = nullptr;
    /// Whether config has it at its default (its text equals the default's).
    bool isDefault(const RunConfig& config) const { return text(config) == text(RunConfig {}); }
    /// The default's text ("10", "5s", "" for off).
    std::string defaultText() const { return text(RunConfig {}); }
};

/// The table, in the order the CLI's --help, the window's form and the plans list them.
std::span<const RunSetting> runSettings();
/// The setting with this key; null when there is none.
const RunSetting* findRunSetting(std::string_view key);
/// The keys a plan accepts in "load" and each level.
std::vector<std::string> planLoadKeys();

/// Reads every (key, text) given into config, in the table's order (so that a later setting
/// may rely on an earlier one). The first error names the setting as `name(setting)` says.
Status readRunSettings(RunConfig& config, const std::vector<std::pair<const RunSetting*, std::string>>& given,
    std::string (*name)(const RunSetting&));

/// "--conn-requests": a setting's longest CLI flag, for messages.
std::string flagName(const RunSetting& setting);

/// True when every setting of the table reads the same in a and b (the loads are the same).
bool sameLoad(const RunConfig& a, const RunConfig& b);

} // namespace wb
