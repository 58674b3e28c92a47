#pragma once
// Loaders run by hand (`run --shard I/N --start-at T --json F` on several
// machines) merged afterwards (`wrkbench-cli merge`): their documents fed to a
// FleetMerge interval by interval, as a LoadRunner, so the recorded run stores
// and reports the merged run like any other.

#include "run/loadrunner.h"
#include "wire/loaderread.h"

#include <vector>

namespace wb {

class DocumentMerge final : public LoadRunner
{
public:
    explicit DocumentMerge(std::vector<LoaderDocument> documents);

    /// The run the documents make together, or why they do not belong together (another
    /// configuration, another loader count, an index twice, nothing to merge).
    static Result<RunConfig> checkTogether(const std::vector<LoaderDocument>& documents);
    /// The common start: the one the loaders were given, else the earliest measured.
    static int64_t commonStartUnixMs(const std::vector<LoaderDocument>& documents);

    void addObserver(RunObserver* observer) override { m_observers.push_back(observer); }
    Status prepare() override;
    RunResult run() override;
    void stop() override { }
    const std::vector<std::string>& warnings() const override { return m_warnings; }

private:
    std::vector<LoaderDocument> m_documents;
    std::vector<RunObserver*> m_observers;
    std::vector<std::string> m_warnings;
};

} // namespace wb
