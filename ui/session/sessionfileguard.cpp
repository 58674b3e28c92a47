#include "session/sessionfileguard.h"

#include <QFile>
#include <fcntl.h>
#include <unistd.h>

namespace wb::ui {

namespace {
// SQLite's lock bytes (sqlite3.c, os_unix): PENDING_BYTE at 1 GiB, RESERVED_BYTE
// after it, then the SHARED range that readers lock and EXCLUSIVE write-locks whole.
constexpr off_t PENDING_BYTE = 0x40000000;
constexpr off_t SHARED_FIRST = PENDING_BYTE + 2;
constexpr off_t SHARED_SIZE = 510;
} // namespace

SessionFileGuard::SessionFileGuard(const QString& path)
{
    m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) return;
    struct flock lock
    { };
    lock.l_type = F_RDLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = SHARED_FIRST;
    lock.l_len = SHARED_SIZE;
    lock.l_pid = 0; // required for OFD locks
    if (::fcntl(m_fd, F_OFD_SETLK, &lock) != 0) {
        // Another process holds EXCLUSIVE right now (a checkpoint): the guard is best effort.
        ::close(m_fd);
        m_fd = -1;
    }
}

SessionFileGuard::~SessionFileGuard()
{
    if (m_fd >= 0) ::close(m_fd); // releases the OFD lock (its own descriptor only)
}

} // namespace wb::ui
