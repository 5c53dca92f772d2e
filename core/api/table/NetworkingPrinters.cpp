// SPDX-License-Identifier: MIT
// Endpoints, EndpointSlice, Ingress, IngressClass and NetworkPolicy (table-output.md §5.2, §5.6).
#include <set>

#include "api/table/BuiltInPrinters.h"
#include "api/table/PrinterColumns.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::memberAt;

// net.JoinHostPort: IPv6 addresses in brackets.
std::string hostPort(const std::string &host, std::int64_t port)
{
    const std::string text = host.find(':') == std::string::npos ? host : '[' + host + ']';
    return text + ':' + std::to_string(port);
}

// formatEndpoints: ready addresses only, ip:port for each port × address, at most 3.
std::string formatEndpoints(const json &subsets)
{
    if (arrayOrEmpty(subsets).empty())
        return "<none>";
    constexpr std::size_t MAX = 3;
    std::vector<std::string> list;
    bool more = false;
    std::size_t count = 0;
    for (const json &subset : arrayOrEmpty(subsets)) {
        const json &addresses = arrayOrEmpty(member(subset, "addresses"));
        const json &ports = arrayOrEmpty(member(subset, "ports"));
        if (ports.empty()) { // headless services may have no ports
            count += addresses.size();
            for (const json &address : addresses) {
                if (list.size() == MAX) {
                    more = true;
                    break;
                }
                list.push_back(textOr(member(address, "ip"), ""));
            }
            continue;
        }
        for (const json &port : ports) {
            count += addresses.size();
            for (const json &address : addresses) {
                if (list.size() == MAX) {
                    more = true;
                    break;
                }
                list.push_back(hostPort(textOr(member(address, "ip"), ""), integerOr0(member(port, "port"))));
            }
        }
    }
    const std::string text = joined(list, ",");
    return more ? text + " + " + std::to_string(count - MAX) + " more..." : text;
}

// formatDiscoveryPorts: each port's number, else its name, else "*".
std::string formatDiscoveryPorts(const json &ports)
{
    constexpr std::size_t MAX = 3;
    std::vector<std::string> list;
    bool more = false;
    for (const json &port : arrayOrEmpty(ports)) {
        if (list.size() < MAX) {
            const json &number = member(port, "port");
            const json &name = member(port, "name");
            list.push_back(!number.is_null() ? std::to_string(integerOr0(number))
                                             : (!name.is_null() ? model::stringOr(name) : "*"));
        } else {
            more = true;
        }
    }
    return listWithMore(list, more, arrayOrEmpty(ports).size(), MAX);
}

// formatDiscoveryEndpoints: every endpoint's addresses, flattened.
std::string formatDiscoveryEndpoints(const json &endpoints)
{
    constexpr std::size_t MAX = 3;
    std::vector<std::string> list;
    bool more = false;
    std::size_t count = 0;
    for (const json &endpoint : arrayOrEmpty(endpoints)) {
        for (const json &address : arrayOrEmpty(member(endpoint, "addresses"))) {
            if (list.size() < MAX)
                list.push_back(model::stringOr(address));
            else
                more = true;
            ++count;
        }
    }
    return listWithMore(list, more, count, MAX);
}

// formatHosts: counts rules, not hosts, once three hosts are listed.
std::string formatHosts(const json &rules)
{
    constexpr std::size_t MAX = 3;
    std::vector<std::string> list;
    bool more = false;
    for (const json &rule : arrayOrEmpty(rules)) {
        if (list.size() == MAX)
            more = true;
        if (const std::string host = textOr(member(rule, "host"), ""); !more && !host.empty())
            list.push_back(host);
    }
    if (list.empty())
        return "*";
    const std::string text = joined(list, ",");
    return more ? text + " + " + std::to_string(arrayOrEmpty(rules).size() - MAX) + " more..." : text;
}

// ingressLoadBalancerStatusStringer, wide: never clipped server-side.
std::string ingressAddresses(const json &ingress)
{
    std::set<std::string> addresses;
    for (const json &entry : arrayOrEmpty(memberAt(ingress, "status", "loadBalancer", "ingress"))) {
        if (const std::string address = textOr(member(entry, "ip"), textOr(member(entry, "hostname"), ""));
            !address.empty())
            addresses.insert(address);
    }
    return joined(std::vector<std::string>(addresses.begin(), addresses.end()), ",");
}

} // namespace

Printer endpoints()
{
    return {{nameColumn(),
             column("Endpoints", "The set of all endpoints is the union of all subsets. Addresses are placed into "
                                 "subsets according to the IPs they share. A single address with multiple ports, some "
                                 "of which are ready and some of which are not (because they come from different "
                                 "containers) will result in the address being displayed in different subsets for the "
                                 "different ports. No address will appear in both Addresses and NotReadyAddresses in "
                                 "the same subset. Sets of addresses and ports that comprise a service."),
             ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), formatEndpoints(member(o, "subsets")), objectAge(o, now)});
            }};
}

Printer endpointSlices()
{
    return {{nameColumn(),
             column("AddressType", "addressType specifies the type of address carried by this EndpointSlice. All "
                                   "addresses in this slice must be the same type. This field is immutable after "
                                   "creation. The following address types are currently supported: * IPv4: Represents "
                                   "an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully "
                                   "Qualified Domain Name."),
             column("Ports", "ports specifies the list of network ports exposed by each endpoint in this slice. Each "
                             "port must have a unique name. When ports is empty, it indicates that there are no "
                             "defined ports. When a port is defined with a nil port value, it indicates \"all "
                             "ports\". Each slice may include a maximum of 100 ports."),
             column("Endpoints", "endpoints is a list of unique endpoints in this slice. Each slice may include a "
                                 "maximum of 1000 endpoints."),
             ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), model::stringOr(member(o, "addressType")),
                                    formatDiscoveryPorts(member(o, "ports")),
                                    formatDiscoveryEndpoints(member(o, "endpoints")), objectAge(o, now)});
            }};
}

Printer ingresses()
{
    return {{nameColumn(),
             column("Class", "The name of the IngressClass resource that should be used for additional configuration"),
             column("Hosts", "Hosts that incoming requests are matched against before the ingress rule"),
             column("Address", "Address is a list containing ingress points for the load-balancer"),
             column("Ports", "Ports of TLS configurations that open"), ageColumn()},
            [](const json &o, std::int64_t now) {
                const json &spec = member(o, "spec");
                return json::array({objectName(o), model::stringOr(member(spec, "ingressClassName"), "<none>"),
                                    formatHosts(member(spec, "rules")), ingressAddresses(o),
                                    arrayOrEmpty(member(spec, "tls")).empty() ? "80" : "80, 443", objectAge(o, now)});
            }};
}

Printer ingressClasses()
{
    return {{nameColumn(), column("Controller", "Controller that is responsible for handling this class"),
             column("Parameters", "A reference to a resource with additional parameters"), ageColumn()},
            [](const json &o, std::int64_t now) {
                const json &spec = member(o, "spec");
                std::string parameters = "<none>";
                if (const json &reference = member(spec, "parameters"); reference.is_object()) {
                    parameters = model::stringOr(member(reference, "kind"));
                    if (const json &group = member(reference, "apiGroup"); !group.is_null())
                        parameters += '.' + model::stringOr(group);
                    parameters += '/' + model::stringOr(member(reference, "name"));
                }
                return json::array(
                    {objectName(o), model::stringOr(member(spec, "controller")), parameters, objectAge(o, now)});
            }};
}

Printer networkPolicies()
{
    return {{nameColumn(),
             column("Pod-Selector", "Selects the pods to which this NetworkPolicy object applies.  The array of "
                                    "ingress rules is applied to any pods selected by this field. Multiple network "
                                    "policies can select the same set of pods.  In this case, the ingress rules for "
                                    "each are combined additively. This field is NOT optional and follows standard "
                                    "label selector semantics. An empty podSelector matches all pods in this "
                                    "namespace."),
             ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array(
                    {objectName(o), formatLabelSelector(memberAt(o, "spec", "podSelector")), objectAge(o, now)});
            }};
}

} // namespace rvscope::api::table
