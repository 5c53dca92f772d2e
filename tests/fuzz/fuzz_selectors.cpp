// SPDX-License-Identifier: MIT
// libFuzzer target: label and field selector parsing (the `labelSelector` and
// `fieldSelector` query parameters). A parse either fails with a 400 Status or gives a
// selector whose text form parses again to the same selector (the round trip
// Scale.status.selector and continue tokens rely on), and matching runs. A field selector's
// terms come back as the same set: as upstream, parse sorts the raw terms and the text form
// writes them normalized ("a==b" as "a=b"), which may sort otherwise.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

#include "FuzzSupport.h"
#include "registry/selection/FieldSelector.h"
#include "registry/selection/LabelSelector.h"

using namespace rvscope::registry;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = rvscope::fuzz::textOf(data, size);
    if (auto labels = LabelSelector::parse(text)) {
        const std::string once = labels->toString();
        auto again = LabelSelector::parse(once);
        if (!again || again->toString() != once) {
            std::fprintf(stderr, "label selector round trip: %s -> %s\n", once.c_str(),
                         again ? again->toString().c_str() : again.error().message.c_str());
            std::abort();
        }
        (void)labels->matches({{"app", "web"}, {"tier", "1"}});
    } else if (labels.error().code != 400) {
        std::abort();
    }
    if (auto fields = FieldSelector::parse(text)) {
        const std::string once = fields->toString();
        auto again = FieldSelector::parse(once);
        const auto sorted = [](const FieldSelector &selector) {
            std::vector<std::tuple<std::string, int, std::string>> terms;
            for (const FieldRequirement &term : selector.requirements())
                terms.emplace_back(term.field, int(term.op), term.value);
            std::sort(terms.begin(), terms.end());
            return terms;
        };
        if (!again || sorted(*again) != sorted(*fields)) {
            std::fprintf(stderr, "field selector round trip: %s -> %s\n", once.c_str(),
                         again ? again->toString().c_str() : again.error().message.c_str());
            std::abort();
        }
        (void)fields->matches({{"metadata.name", "a"}, {"spec.nodeName", ""}});
    } else if (fields.error().code != 400) {
        std::abort();
    }
    return 0;
}
