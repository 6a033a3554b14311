// lookup-with-own-scope HIERA_YAML KEY
//
// Looks KEY up for one node whose facts come from the program's own hiera::Scope rather than from a
// facts file: an inventory record answering the references the hierarchy makes (%{trusted.certname},
// %{facts.os.family}, ...). Prints the value as JSON on stdout and, on stderr, every reference the
// engine asked the scope about. Exit status: 0 found, 1 not found, 2 error.

#include <hiera/context.h>
#include <hiera/scope.h>
#include <hiera/valueformat.h>
#include <hiera/version.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace {

// A node as an inventory system might describe it: flat, dotted names. The engine hands the scope each
// reference raw, so the scope decides what "facts.os.family" or "::role" means.
class InventoryScope : public hiera::Scope
{
public:
    InventoryScope()
    {
        m_entries["trusted.certname"] = "web01.example.com";
        m_entries["facts.role"] = "web";
        m_entries["facts.env"] = "production";
        m_entries["facts.os.family"] = "Debian";
        m_entries["facts.os.release.major"] = "12";
        m_entries["facts.datacenters"] = hiera::Array{hiera::Value("dc1")};
    }

    std::optional<hiera::Value> lookup(std::string_view ref) const override
    {
        std::string name(ref.substr(ref.starts_with("::") ? 2 : 0));
        if (!name.starts_with("facts.") && !name.starts_with("trusted."))
            name = "facts." + name; // a top-scope variable is the fact of the same name
        {
            std::lock_guard lock(m_mutex); // a Scope may be asked from several threads at once
            m_asked.insert(std::string(ref));
        }
        const auto it = m_entries.find(name);
        if (it == m_entries.end())
            return std::nullopt;
        return it->second;
    }

    std::set<std::string> asked() const
    {
        std::lock_guard lock(m_mutex);
        return m_asked;
    }

private:
    std::map<std::string, hiera::Value> m_entries;
    mutable std::mutex m_mutex;
    mutable std::set<std::string> m_asked;
};

} // namespace

int main(int argc, char* argv[])
{
    if (argc != 3) {
        std::cerr << "usage: lookup-with-own-scope HIERA_YAML KEY   (Hiera engine " << HIERA_VERSION << ")\n";
        return 2;
    }
    try {
        auto scope = std::make_shared<InventoryScope>();
        const hiera::Context node = hiera::Context::load(argv[1], scope);
        const hiera::LookupResult result = node.lookup(argv[2]);
        for (const std::string& ref : scope->asked())
            std::cerr << "scope asked for: " << ref << '\n';
        if (result.error)
            throw *result.error;
        if (!result.found())
            return 1;
        std::cout << hiera::toJson(result.value) << '\n';
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "lookup-with-own-scope: " << e.what() << '\n';
        return 2;
    }
}
