#include "jobs/jobprogress.h"

namespace hiera::ui {

std::function<void(std::size_t, std::size_t)> JobProgress::Ticket::reporter()
{
    return [this](std::size_t done, std::size_t total) {
        this->total = total;
        this->done = done;
    };
}

JobProgress::JobProgress(QObject* parent) : QObject(parent)
{
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (m_ticket)
            Q_EMIT progress(m_ticket->done.load(), m_ticket->total.load());
    });
}

std::shared_ptr<JobProgress::Ticket> JobProgress::start()
{
    cancel();
    m_ticket = std::make_shared<Ticket>();
    m_poll.start();
    return m_ticket;
}

void JobProgress::cancel()
{
    if (m_ticket)
        m_ticket->stop.request_stop();
}

} // namespace hiera::ui
