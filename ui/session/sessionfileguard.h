#pragma once
// Keeps other processes from deleting the session's -wal file while this
// process uses it.
//
// Why: SQLite in WAL mode holds a SHARED lock on the database file for as long
// as a connection is open; the last connection to close (in any process) takes
// an EXCLUSIVE lock, checkpoints and deletes the -wal. Those are POSIX fcntl()
// locks, which the kernel drops for the whole process as soon as the process
// closes *any* descriptor of the file. SessionStore::open() reads the file
// header through its own descriptor, so opening the recorder's store during a
// run silently drops the locks of this process's other connection. A
// wrkbench-cli that then reads the session and exits believes it is the last
// user and deletes the -wal the GUI is still writing to: the rest of the run is
// lost (tests/ui/runsession_test.cpp, anotherProcessReadingDuringARunLosesNothing).
//
// The guard holds an open-file-description (OFD) read lock on SQLite's SHARED
// byte range for the life of the open session. OFD locks belong to their own
// descriptor and survive other descriptors being closed; they conflict with
// the POSIX locks of other processes, so their EXCLUSIVE attempt fails and the
// -wal stays. Nothing in this process needs EXCLUSIVE on the database file in
// WAL mode except the checkpoint of the very last connection, which the guard
// lets happen by going away first.

#include <QString>

namespace wb::ui {

class SessionFileGuard
{
public:
    explicit SessionFileGuard(const QString& path);
    ~SessionFileGuard();
    SessionFileGuard(const SessionFileGuard&) = delete;
    SessionFileGuard& operator=(const SessionFileGuard&) = delete;

    bool isHeld() const { return m_fd >= 0; }

private:
    int m_fd = -1;
};

} // namespace wb::ui
