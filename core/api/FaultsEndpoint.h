// SPDX-License-Identifier: MIT
#pragma once

#include "api/ApiTypes.h"
#include "api/Route.h"

namespace rvscope::faults {
class FaultSet;
}

namespace rvscope::api {

// /rvscope/v1/faults, rvscope's own endpoint for the fault rules a test sets from its code
// (never itself subject to them):
//   GET    /rvscope/v1/faults        200 {"kind":"FaultRuleList","apiVersion":"rvscope/v1","items":[RULE...]}
//   GET    /rvscope/v1/faults/ID     200 RULE, 404 Status
//   POST   /rvscope/v1/faults        body {"rule":"update configmaps/x every=3 conflict"}: 201 RULE,
//                                    400 Status for a bad body or rule
//   DELETE /rvscope/v1/faults/ID     200 the rule removed (with its counts), 404 Status
//   DELETE /rvscope/v1/faults        200 the list of the rules removed (all of them)
// where RULE is {"id":1,"rule":"...","matched":0,"fired":0,"spent":false}. Other methods get
// 405. Authorization is the caller's (a non-resource request on this path).
ApiResponse serveFaults(faults::FaultSet &faults, const Route &route, const ApiRequest &request);

} // namespace rvscope::api
