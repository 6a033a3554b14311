#pragma once

// PoolExecutor — hiera::Executor over a QThreadPool: the engine's many-node jobs (reading a node
// library, one key across it) run on the explorer's own pool, not on threads the engine would start.
// The calling thread (itself a job of that pool) works too. Helpers are started only where the pool has
// a free thread at that moment (QThreadPool::tryStart): a job never waits for a helper that cannot
// start, so a busy pool means fewer helpers, never a deadlock.

#include <hiera/executor.h>

class QThreadPool;

class PoolExecutor final : public hiera::Executor
{
public:
    explicit PoolExecutor(QThreadPool* pool);
};
