#pragma once
// Loaders as child processes of this one: `wrkbench-cli loader` with a share
// each, on this machine (a large box, or the tests). Same protocol as pods:
// paused after preparation, started and stopped through control files in a
// private temporary directory, one stream each on a pipe (stdout and stderr).

#include "fleet/loaderexecutor.h"
#include "fleet/subprocess.h"

#include <sys/types.h>
#include <vector>

namespace wb {

class LocalExecutor final : public LoaderExecutor
{
public:
    /// cliPath: the wrkbench-cli binary the children run (this one's, for the CLI).
    explicit LocalExecutor(std::string cliPath);
    ~LocalExecutor() override;

    std::string kind() const override { return "local"; }
    Status launch(const std::string& configJson, unsigned count, const std::atomic<bool>& stop) override;
    int streamFd(unsigned loader) const override;
    Status tellAll(const std::string& name, const std::string& content) override;
    uint64_t tellAllowanceUs(unsigned) const override { return 200'000; }
    std::string endReason(unsigned loader) override;
    std::string where(unsigned loader) const override;
    void cleanup() override;

private:
    struct Child
    {
        StreamingProcess process;
        std::string controlDir;
        int status = 0;
        bool reaped = false;
    };
    std::string m_cliPath;
    std::string m_dir; ///< the temporary directory: config.json, loader-I/ control dirs
    std::vector<Child> m_children;
};

/// The path of this process's executable (/proc/self/exe).
std::string thisExecutable();

} // namespace wb
