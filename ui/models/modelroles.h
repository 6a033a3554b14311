#pragma once

// The item data roles every explorer model answers (GammaRay's common/modelroles.h): views, delegates
// and tests ask for the same thing by the same role, whatever the model.

#include <Qt>

namespace hiera::ui {

namespace HieraRoles {

enum Role {
    // QString: absolute path of the file this row points at (a value's origin, a location, a level's
    // hiera.yaml). Empty when unknown.
    SourceFileRole = Qt::UserRole + 1,
    SourceLineRole, // int, 1-based; 0 = unknown
    SourceColumnRole, // int, 1-based; 0 = unknown
    // QString: the key to highlight when the source is shown (the hash key of a leaf, the looked-up root).
    SourceKeyRole,
    // int: hiera::Value::Type of the row's value (FactTreeModel, ValueTreeModel).
    ValueTypeRole,
    // QString: the row's value as YAML text (ValueTreeModel), for copying.
    YamlRole,
    // int: hiera::TraceNode::Kind (ExplanationModel).
    TraceKindRole,
    // int: hiera::TraceNode::Event (ExplanationModel); for contributions, ContributionModel::Outcome.
    TraceEventRole,
    // int: ContributionModel::Outcome.
    OutcomeRole,
    // int: hiera::ResolvedLocation::Status (HierarchyModel location rows); -1 on level rows.
    LocationStatusRole,
    // bool: the location interpolated with an empty or undefined variable (HierarchyModel).
    SuspiciousRole,
    // QString: the dotted path of the row from the model's root (FactTreeModel: "facts.os.family").
    KeyPathRole,
    // int: HierarchyModel::RowKind of the row (layer, level or location).
    HierarchyRowRole,
    // int: hiera::Layer::Kind of the layer a HierarchyModel row belongs to.
    LayerKindRole,
    // QString: why the engine cannot run this level (HierarchyModel level rows); empty if it can.
    UnsupportedRole,
    // bool: a level of a module's default_hierarchy (HierarchyModel level rows).
    DefaultHierarchyRole,
    // bool: the row's value is decrypted eyaml (ValueTreeModel, ExplanationModel, ContributionModel),
    // masked or revealed.
    SecretRole,
    // bool: the row lies on the path a dotted key digs (ValueTreeModel's root value: profile::ntp.servers.1
    // marks servers and its element 1).
    PickedRole,
    // bool: a top-scope copy of a fact (FactTreeModel): read-only, it follows facts.<name>.
    DerivedRole,
};

} // namespace HieraRoles

} // namespace hiera::ui
