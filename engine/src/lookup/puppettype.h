#pragma once

// Puppet's name for a value's type, as its error messages print it. Scalars have one name; a collection
// is named after the type Puppet infers for it, which depends on the check: a merge's type check infers
// Tuple and Struct ("expects a Hash value, got Tuple"), convert_to names the collection ("Value of type
// Array cannot be converted to ..."; Puppet writes Array[Integer] there, we write Array).

#include <hiera/value.h>

namespace hiera::detail {

enum class CollectionNames { TupleStruct, ArrayHash };

inline const char* puppetTypeName(const Value& v, CollectionNames collections)
{
    switch (v.type()) {
    case Value::Type::Null:
        return "Undef";
    case Value::Type::Boolean:
        return "Boolean";
    case Value::Type::Integer:
        return "Integer";
    case Value::Type::Float:
        return "Float";
    case Value::Type::String:
        return "String";
    case Value::Type::Array:
        return collections == CollectionNames::TupleStruct ? "Tuple" : "Array";
    case Value::Type::Hash:
        return collections == CollectionNames::TupleStruct ? "Struct" : "Hash";
    }
    return "Any";
}

} // namespace hiera::detail
