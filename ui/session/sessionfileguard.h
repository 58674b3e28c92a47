#pragma once
// Keeps other processes from deleting the session's -wal file while this process uses it. SQLite's POSIX fcntl()
// locks are dropped for the whole process when it closes any descriptor of the file, and SessionStore::open() reads
// the header through its own: a wrkbench-cli reading the session during a run would then believe it was the last
// user and delete the -wal the GUI is still writing (runtask_test.cpp, anotherProcessReadingDuringARunLosesNothing).
// The guard holds an open-file-description (OFD) read lock on SQLite's SHARED byte range: it survives other
// descriptors closing and makes other processes' EXCLUSIVE attempt fail, so the -wal stays. It must be released before
// this process's last connection closes, whose checkpoint needs EXCLUSIVE (SessionDocument declares it so).

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
