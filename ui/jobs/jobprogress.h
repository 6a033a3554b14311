#pragma once

// JobProgress — how far a runner's long job is (a revision diff, a file's impact: thousands of
// nodes), as the GUI shows it: the job's worker threads store how many of how many nodes are done in a
// Ticket; the GUI thread reads it ten times a second and says progress(); cancel() asks the job to stop
// at its next node. One job at a time: start() replaces (and stops) the previous ticket.

#include <QObject>
#include <QTimer>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <stop_token>

namespace hiera::ui {

class JobProgress : public QObject
{
    Q_OBJECT
public:
    struct Ticket
    {
        std::stop_source stop;
        std::atomic<std::size_t> done{0};
        std::atomic<std::size_t> total{0};
        // What the engine's progress callbacks call (from any thread).
        std::function<void(std::size_t, std::size_t)> reporter();
    };

    explicit JobProgress(QObject* parent = nullptr);

    // A ticket for a new job, polled until stopPolling(); the previous job is asked to stop.
    std::shared_ptr<Ticket> start();
    void stopPolling() { m_poll.stop(); }
    void cancel();

Q_SIGNALS:
    void progress(qulonglong done, qulonglong total);

private:
    std::shared_ptr<Ticket> m_ticket;
    QTimer m_poll;
};

} // namespace hiera::ui
