#include "lookup/rubyregex.h"

#include <oniguruma.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

namespace hiera::detail {

namespace {

// Oniguruma's global set-up must run once, before any compilation, and compilation itself must not
// run on two threads at once (Oniguruma's API document, "thread safety"); matching may.
std::mutex& compileMutex()
{
    static std::mutex mutex;
    static std::once_flag once;
    std::call_once(once, [] {
        OnigEncoding encodings[] = {ONIG_ENCODING_UTF8};
        onig_initialize(encodings, 1);
    });
    return mutex;
}

std::string onigMessage(int code, OnigErrorInfo* info)
{
    OnigUChar buffer[ONIG_MAX_ERROR_MESSAGE_LEN];
    const int length = info ? onig_error_code_to_str(buffer, code, info) : onig_error_code_to_str(buffer, code);
    return std::string(reinterpret_cast<const char*>(buffer), length > 0 ? static_cast<std::size_t>(length) : 0);
}

thread_local RubyRegex::LookupBudget* t_budget = nullptr;

} // namespace

RubyRegex::LookupBudget::LookupBudget(std::chrono::nanoseconds budget) : m_outer(t_budget), m_left(budget)
{
    if (!m_outer) // nested lookups share the outermost budget
        t_budget = this;
}

RubyRegex::LookupBudget::~LookupBudget()
{
    if (t_budget == this)
        t_budget = m_outer;
}

struct RubyRegex::Compiled
{
    regex_t* regex = nullptr;
    ~Compiled()
    {
        if (regex) {
            std::lock_guard lock(compileMutex());
            onig_free(regex);
        }
    }
};

RubyRegex::RubyRegex(const std::string& pattern) : m_compiled(std::make_unique<Compiled>())
{
    const auto* begin = reinterpret_cast<const OnigUChar*>(pattern.data());
    OnigErrorInfo info{};
    std::lock_guard lock(compileMutex());
    const int rc = onig_new(&m_compiled->regex, begin, begin + pattern.size(), ONIG_OPTION_NONE, ONIG_ENCODING_UTF8,
                            ONIG_SYNTAX_RUBY, &info);
    if (rc != ONIG_NORMAL) {
        m_compiled->regex = nullptr;
        throw std::invalid_argument(onigMessage(rc, &info));
    }
}

RubyRegex::~RubyRegex() = default;

RubyRegex::Outcome RubyRegex::search(std::string_view subject) const
{
    LookupBudget* budget = t_budget;
    if (budget && budget->m_left <= std::chrono::nanoseconds::zero())
        return Outcome::BudgetSpent;
    const auto started = budget ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    struct Charge
    {
        LookupBudget* budget;
        std::chrono::steady_clock::time_point started;
        ~Charge()
        {
            if (budget)
                budget->m_left -= std::chrono::steady_clock::now() - started;
        }
    } charge{budget, started};

    OnigMatchParam* param = onig_new_match_param();
    if (!param)
        throw std::bad_alloc();
    struct ParamGuard
    {
        OnigMatchParam* p;
        ~ParamGuard() { onig_free_match_param(p); }
    } guard{param};
    onig_initialize_match_param(param);
    const unsigned long retries = retryLimitFor(subject.size());
    onig_set_retry_limit_in_match_of_match_param(param, retries);
    onig_set_retry_limit_in_search_of_match_param(param, retries);
    const std::size_t stack = std::min<std::size_t>(std::max<std::size_t>(kStackBase, 4 * subject.size()), 1u << 30);
    onig_set_match_stack_limit_size_of_match_param(param, static_cast<unsigned int>(stack));

    const auto* begin = reinterpret_cast<const OnigUChar*>(subject.data());
    const auto* end = begin + subject.size();
    // CHECK_VALIDITY: Oniguruma assumes valid UTF-8 and may read past a truncated sequence otherwise.
    const int rc = onig_search_with_param(m_compiled->regex, begin, end, begin, end, nullptr,
                                          ONIG_OPTION_CHECK_VALIDITY_OF_STRING, param);
    if (rc >= 0)
        return Outcome::Match;
    if (rc == ONIG_MISMATCH)
        return Outcome::NoMatch;
    if (rc == ONIGERR_MEMORY)
        throw std::bad_alloc();
    if (rc == ONIGERR_INVALID_WIDE_CHAR_VALUE)
        return Outcome::InvalidSubject;
    return Outcome::GaveUp; // the retry or the stack limit
}

} // namespace hiera::detail
