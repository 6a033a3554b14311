#pragma once

// Where a lookup records its trace: a cursor on one TraceNode, or the null cursor when the caller did
// not ask for an explanation. Every method of the null cursor does nothing, so the lookup is written
// once, without `if (trace)` around each step; what costs something to compute (a SourceLocation, a
// copied path) goes through with(), whose function runs only when a trace is being recorded.

#include <hiera/trace.h>

#include <utility>

namespace hiera::detail {

class TraceCursor
{
public:
    TraceCursor() = default; // records nothing
    explicit TraceCursor(TraceNode* node) : m_node(node) { }

    bool recording() const { return m_node != nullptr; }
    TraceNode* node() const { return m_node; }

    // A new child node (null from the null cursor).
    // The null test stays inline and the recording path out of line, so a lookup without a trace pays
    // one branch per step (the whole call was not inlined, and cost a warm lookup about 4%).
    TraceCursor child(TraceNode::Kind kind) const { return m_node ? recordChild(kind) : TraceCursor(); }
    TraceCursor child(TraceNode::Kind kind, std::string name) const
    {
        TraceCursor c = child(kind);
        c.name(std::move(name));
        return c;
    }

    const TraceCursor& event(TraceNode::Event e) const
    {
        if (m_node)
            m_node->event = e;
        return *this;
    }
    const TraceCursor& name(std::string s) const
    {
        if (m_node)
            m_node->name = std::move(s);
        return *this;
    }
    const TraceCursor& key(std::string s) const
    {
        if (m_node)
            m_node->key = std::move(s);
        return *this;
    }
    const TraceCursor& value(const Value& v) const
    {
        if (m_node)
            m_node->value = v;
        return *this;
    }
    const TraceCursor& message(std::string s) const
    {
        if (m_node)
            m_node->message = std::move(s);
        return *this;
    }
    // An outcome with its value: Found, Result...
    const TraceCursor& outcome(TraceNode::Event e, const Value& v) const { return event(e).value(v); }
    // Failed, with the error's text.
    const TraceCursor& failed(const std::exception& e) const
    {
        return event(TraceNode::Event::Failed).message(e.what());
    }
    // A Warning child: warnings show on the node they are about.
    const TraceCursor& warning(const std::string& text) const
    {
        if (m_node)
            child(TraceNode::Kind::Message).event(TraceNode::Event::Warning).message(text);
        return *this;
    }

    // Runs f(TraceNode&) when recording: for fields that cost something to compute.
    template <typename F>
    const TraceCursor& with(F&& f) const
    {
        if (m_node)
            std::forward<F>(f)(*m_node);
        return *this;
    }

private:
    [[gnu::noinline]] TraceCursor recordChild(TraceNode::Kind kind) const
    {
        return TraceCursor(&m_node->addChild(kind));
    }

    TraceNode* m_node = nullptr;
};

} // namespace hiera::detail
