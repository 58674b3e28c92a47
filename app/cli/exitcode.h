#pragma once
// What wrkbench-cli's exit status means, one list for every command (the man page's EXIT STATUS
// section says the same to users).

namespace wb::cli {

enum ExitCode : int {
    EXIT_OK = 0,
    /// The command could not do its work: the target unreachable, a file unreadable or unwritable,
    /// every loader of a distributed run lost (what they measured is still reported and stored).
    EXIT_FAILED = 1,
    EXIT_USAGE = 2, ///< an invalid command line or option value
    EXIT_NOT_STORED = 3, ///< the run completed and was reported, but not stored completely
    /// The run (or every run an experiment counts) completed and an SLO failed; wins over 3.
    EXIT_SLO_FAILED = 4,
    /// capacity: the search was limited by the loader, so no capacity is claimed for a target.
    EXIT_LOADER_LIMITED = 5,
    EXIT_STOPPED = 130, ///< 128 + SIGINT, as shells report a command stopped by Ctrl-C
};

} // namespace wb::cli
