// SPDX-License-Identifier: MIT
// PersistentVolume, PersistentVolumeClaim and StorageClass (table-output.md §5.2, §5.7).
#include <algorithm>

#include "api/table/BuiltInPrinters.h"
#include "api/table/PrinterColumns.h"
#include "api/table/QuantityText.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::memberAt;
using model::stringOr;

const char *const BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

// helper.GetAccessModesAsString: deduplicated, in a fixed order.
std::string accessModes(const json &modes)
{
    static const std::pair<const char *, const char *> ORDER[] = {
        {"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}};
    std::vector<std::string> names;
    for (const auto &[mode, shortName] : ORDER) {
        if (modes.is_array() && std::find(modes.begin(), modes.end(), json(mode)) != modes.end())
            names.push_back(shortName);
    }
    return joined(names, ",");
}

// The beta annotation whenever it is present (even empty), else `fallback`.
std::string storageClassOf(const json &object, const json &fallback)
{
    const json &annotations = memberAt(object, "metadata", "annotations");
    if (annotations.is_object() && annotations.contains(BETA_STORAGE_CLASS))
        return stringOr(member(annotations, BETA_STORAGE_CLASS));
    return stringOr(fallback);
}

std::string phaseOf(const json &object)
{
    return memberAt(object, "metadata", "deletionTimestamp").is_null() ? stringOr(memberAt(object, "status", "phase"))
                                                                        : "Terminating";
}

} // namespace

Printer persistentVolumes()
{
    return {{nameColumn(),
             column("Capacity", "capacity is the description of the persistent volume's resources and capacity. More "
                                "info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity"),
             column("Access Modes", "accessModes contains all ways the volume can be mounted. More info: "
                                    "https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes"),
             column("Reclaim Policy",
                    "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its "
                    "claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default "
                    "for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be "
                    "supported by the volume plugin underlying this PersistentVolume. More info: "
                    "https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming"),
             column("Status", "phase indicates if a volume is available, bound to a claim, or released by a claim. "
                              "More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase"),
             column("Claim", "claimRef is part of a bi-directional binding between PersistentVolume and "
                             "PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the "
                             "authoritative bind between PV and PVC. More info: "
                             "https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding"),
             column("StorageClass", "StorageClass of the pv"),
             column("VolumeAttributesClass", "VolumeAttributesClass of the pv"),
             column("Reason", "reason is a brief CamelCase string that describes any failure and is meant for machine "
                              "parsing and tidy display in the CLI."),
             ageColumn(),
             column("VolumeMode", "volumeMode defines if a volume is intended to be used with a formatted filesystem "
                                  "or to remain in raw block state. Value of Filesystem is implied when not included "
                                  "in spec.", 1)},
            [](const json &o, std::int64_t now) {
                const json &spec = member(o, "spec");
                const json &claimRef = member(spec, "claimRef");
                const std::string claim = claimRef.is_object() ? stringOr(member(claimRef, "namespace")) + '/'
                                                                     + stringOr(member(claimRef, "name"))
                                                               : std::string();
                return json::array({objectName(o), canonicalQuantity(memberAt(spec, "capacity", "storage")),
                                    accessModes(member(spec, "accessModes")),
                                    stringOr(member(spec, "persistentVolumeReclaimPolicy")), phaseOf(o), claim,
                                    storageClassOf(o, member(spec, "storageClassName")),
                                    stringOr(member(spec, "volumeAttributesClassName"), "<unset>"),
                                    stringOr(memberAt(o, "status", "reason")), objectAge(o, now),
                                    stringOr(member(spec, "volumeMode"), "<unset>")});
            }};
}

Printer persistentVolumeClaims()
{
    return {{nameColumn(), column("Status", "phase represents the current phase of PersistentVolumeClaim."),
             column("Volume", "volumeName is the binding reference to the PersistentVolume backing this claim."),
             column("Capacity", "capacity represents the actual resources of the underlying volume."),
             column("Access Modes", "accessModes contains the actual access modes the volume backing the PVC has. "
                                    "More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes"
                                    "#access-modes-1"),
             column("StorageClass", "StorageClass of the pvc"),
             column("VolumeAttributesClass", "VolumeAttributesClass of the pvc"), ageColumn(),
             column("VolumeMode", "volumeMode defines what type of volume is required by the claim. Value of "
                                  "Filesystem is implied when not included in claim spec.", 1)},
            [](const json &o, std::int64_t now) {
                const json &spec = member(o, "spec");
                const std::string volume = stringOr(member(spec, "volumeName"));
                // capacity and access modes only once bound
                const bool bound = !volume.empty();
                return json::array({objectName(o), phaseOf(o), volume,
                                    bound ? canonicalQuantity(memberAt(o, "status", "capacity", "storage")) : "",
                                    bound ? accessModes(memberAt(o, "status", "accessModes")) : "",
                                    storageClassOf(o, member(spec, "storageClassName")),
                                    stringOr(member(spec, "volumeAttributesClassName"), "<unset>"), objectAge(o, now),
                                    stringOr(member(spec, "volumeMode"), "<unset>")});
            }};
}

Printer storageClasses()
{
    return {{nameColumn(), column("Provisioner", "provisioner indicates the type of the provisioner."),
             column("ReclaimPolicy", "reclaimPolicy controls the reclaimPolicy for dynamically provisioned "
                                     "PersistentVolumes of this storage class. Defaults to Delete."),
             column("VolumeBindingMode", "volumeBindingMode indicates how PersistentVolumeClaims should be "
                                         "provisioned and bound.  When unset, VolumeBindingImmediate is used. This "
                                         "field is only honored by servers that enable the VolumeScheduling feature."),
             column("AllowVolumeExpansion",
                    "allowVolumeExpansion shows whether the storage class allow volume expand."),
             ageColumn()},
            [](const json &o, std::int64_t now) {
                const json &annotations = memberAt(o, "metadata", "annotations");
                const bool isDefault = member(annotations, "storageclass.kubernetes.io/is-default-class") == "true"
                    || member(annotations, "storageclass.beta.kubernetes.io/is-default-class") == "true";
                const json &expansion = member(o, "allowVolumeExpansion");
                return json::array({objectName(o) + (isDefault ? " (default)" : ""),
                                    stringOr(member(o, "provisioner")), stringOr(member(o, "reclaimPolicy"), "Delete"),
                                    stringOr(member(o, "volumeBindingMode"), "Immediate"),
                                    expansion.is_boolean() && expansion.get<bool>(), objectAge(o, now)});
            }};
}

} // namespace rvscope::api::table
