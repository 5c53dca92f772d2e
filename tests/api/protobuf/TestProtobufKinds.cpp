// SPDX-License-Identifier: MIT
// The kinds of kubectl's imperative create commands with the fields those commands leave unset
// (status, selectors, pointers set to zero, absent value structs), built the way client-go
// marshals them. Where kubectl can round-trip the typed object (`kubectl set image --local -o
// json`), its output is the expected JSON; otherwise the Go json tags of k8s.io/api v0.32 are.
#include "ProtobufTestSupport.h"

using namespace protobuf_test;

namespace {

constexpr std::int64_t T_03_00_00 = 1735786800; // 2025-01-02T03:00:00Z
constexpr std::int64_t T_03_04_05 = 1735787045; // 2025-01-02T03:04:05Z

} // namespace

class TestProtobufKinds final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testCronJobSpecAndStatus();
    void testJobStatus();
    void testIngressResourceBackendsAndStatus();
    void testPodDisruptionBudgetStatus();
    void testResourceQuotaScopeSelectorAndStatus();
    void testServiceAccountSecrets();
    void testRbacEmptyValues();
};

void TestProtobufKinds::testCronJobSpecAndStatus()
{
    batch::CronJob cronJob;
    newObjectMeta(cronJob.mutable_metadata(), "rich");
    cronJob.mutable_metadata()->set_namespace_("default");
    batch::CronJobSpec *spec = cronJob.mutable_spec();
    spec->set_schedule("0 3 * * *");
    spec->set_timezone("Etc/UTC");
    spec->set_startingdeadlineseconds(120);
    spec->set_concurrencypolicy("Forbid");
    spec->set_suspend(false);
    spec->set_successfuljobshistorylimit(0); // a set pointer: written as 0
    spec->set_failedjobshistorylimit(1);
    newObjectMeta(spec->mutable_jobtemplate()->mutable_metadata(), "");
    core::PodTemplateSpec *podTemplate = spec->mutable_jobtemplate()->mutable_spec()->mutable_template_();
    newObjectMeta(podTemplate->mutable_metadata(), "");
    core::Container *container = podTemplate->mutable_spec()->add_containers();
    container->set_name("main");
    container->set_image("busybox:2");
    container->mutable_resources();
    core::ObjectReference *active = cronJob.mutable_status()->add_active();
    active->set_kind("Job");
    active->set_namespace_("default");
    active->set_name("rich-1");
    active->set_uid("u1");
    active->set_apiversion("batch/v1");
    active->set_resourceversion("5");
    active->set_fieldpath(""); // gogo writes every string; empty ones are omitempty
    cronJob.mutable_status()->mutable_lastscheduletime()->set_seconds(T_03_00_00);

    // `kubectl set image -f rich.json --local -o json main=busybox:2` of the same CronJob.
    compareDecoded(envelope("batch/v1", "CronJob", cronJob),
                   R"({"kind":"CronJob","apiVersion":"batch/v1","metadata":{"name":"rich","namespace":"default",)"
                   R"("creationTimestamp":null},"spec":{"schedule":"0 3 * * *","timeZone":"Etc/UTC",)"
                   R"("startingDeadlineSeconds":120,"concurrencyPolicy":"Forbid","suspend":false,"jobTemplate":)"
                   R"({"metadata":{"creationTimestamp":null},"spec":{"template":{"metadata":{"creationTimestamp":)"
                   R"(null},"spec":{"containers":[{"name":"main","image":"busybox:2","resources":{}}]}}}},)"
                   R"("successfulJobsHistoryLimit":0,"failedJobsHistoryLimit":1},"status":{"active":[{"kind":"Job",)"
                   R"("namespace":"default","name":"rich-1","uid":"u1","apiVersion":"batch/v1",)"
                   R"("resourceVersion":"5"}],"lastScheduleTime":"2025-01-02T03:00:00Z"}})");
}

void TestProtobufKinds::testJobStatus()
{
    batch::Job job;
    meta::ObjectMeta *metadata = job.mutable_metadata();
    metadata->set_name("done");
    metadata->set_namespace_("default");
    metadata->set_uid("j-1");
    metadata->set_resourceversion("9");
    metadata->set_generation(1);
    metadata->mutable_creationtimestamp()->set_seconds(T_03_00_00);
    (*metadata->mutable_labels())["job-name"] = "done";
    batch::JobSpec *spec = job.mutable_spec();
    spec->set_completions(1);
    spec->set_backofflimit(6);
    (*spec->mutable_selector()->mutable_matchlabels())["batch.kubernetes.io/controller-uid"] = "j-1";
    newObjectMeta(spec->mutable_template_()->mutable_metadata(), "");
    (*spec->mutable_template_()->mutable_metadata()->mutable_labels())["job-name"] = "done";
    core::Container *container = spec->mutable_template_()->mutable_spec()->add_containers();
    container->set_name("main");
    container->set_image("busybox:2");
    spec->mutable_template_()->mutable_spec()->set_restartpolicy("Never");

    batch::JobStatus *status = job.mutable_status();
    batch::JobCondition *met = status->add_conditions();
    met->set_type("SuccessCriteriaMet");
    met->set_status("True");
    met->mutable_lastprobetime(); // the zero time: null
    met->mutable_lasttransitiontime()->set_seconds(T_03_00_00 + 9);
    batch::JobCondition *complete = status->add_conditions();
    complete->set_type("Complete");
    complete->set_status("True");
    complete->mutable_lastprobetime()->set_seconds(T_03_00_00 + 10);
    complete->mutable_lasttransitiontime()->set_seconds(T_03_00_00 + 10);
    complete->set_reason("CompletionsReached");
    complete->set_message("Reached expected number of succeeded pods");
    status->mutable_starttime()->set_seconds(T_03_00_00 + 1);
    status->mutable_completiontime()->set_seconds(T_03_00_00 + 10);
    // Value fields are on the wire even when zero (gogo writes them); omitempty drops them.
    status->set_active(0);
    status->set_succeeded(1);
    status->set_failed(0);
    status->set_completedindexes("");
    status->set_terminating(0);
    status->set_ready(0);
    status->set_failedindexes("");
    status->mutable_uncountedterminatedpods();

    // `kubectl set image -f done.json --local -o json main=busybox:2` of the same Job.
    compareDecoded(envelope("batch/v1", "Job", job),
                   R"({"kind":"Job","apiVersion":"batch/v1","metadata":{"name":"done","namespace":"default",)"
                   R"("uid":"j-1","resourceVersion":"9","generation":1,"creationTimestamp":"2025-01-02T03:00:00Z",)"
                   R"("labels":{"job-name":"done"}},"spec":{"completions":1,"backoffLimit":6,"selector":)"
                   R"({"matchLabels":{"batch.kubernetes.io/controller-uid":"j-1"}},"template":{"metadata":)"
                   R"({"creationTimestamp":null,"labels":{"job-name":"done"}},"spec":{"containers":[{"name":"main",)"
                   R"("image":"busybox:2","resources":{}}],"restartPolicy":"Never"}}},"status":{"conditions":)"
                   R"([{"type":"SuccessCriteriaMet","status":"True","lastProbeTime":null,"lastTransitionTime":)"
                   R"("2025-01-02T03:00:09Z"},{"type":"Complete","status":"True","lastProbeTime":)"
                   R"("2025-01-02T03:00:10Z","lastTransitionTime":"2025-01-02T03:00:10Z","reason":)"
                   R"("CompletionsReached","message":"Reached expected number of succeeded pods"}],"startTime":)"
                   R"("2025-01-02T03:00:01Z","completionTime":"2025-01-02T03:00:10Z","succeeded":1,"terminating":0,)"
                   R"("failedIndexes":"","uncountedTerminatedPods":{},"ready":0}})");
}

void TestProtobufKinds::testIngressResourceBackendsAndStatus()
{
    networking::Ingress ingress;
    newObjectMeta(ingress.mutable_metadata(), "static");
    ingress.mutable_metadata()->set_namespace_("web");
    networking::IngressSpec *spec = ingress.mutable_spec();
    core::TypedLocalObjectReference *bucket = spec->mutable_defaultbackend()->mutable_resource();
    bucket->set_kind("StorageBucket"); // apiGroup unset: a nil pointer without omitempty, null
    bucket->set_name("static-assets");
    spec->add_tls()->set_secretname("wildcard");

    networking::IngressRule *assets = spec->add_rules();
    assets->set_host("assets.example.com");
    networking::HTTPIngressRuleValue *http = assets->mutable_ingressrulevalue()->mutable_http();
    networking::HTTPIngressPath *images = http->add_paths();
    images->set_path("/img"); // no pathType: null
    core::TypedLocalObjectReference *imageBucket = images->mutable_backend()->mutable_resource();
    imageBucket->set_apigroup("k8s.example.com");
    imageBucket->set_kind("StorageBucket");
    imageBucket->set_name("images");
    networking::HTTPIngressPath *root = http->add_paths();
    root->set_path("/");
    root->set_pathtype("Prefix");
    root->mutable_backend()->mutable_service()->set_name("web"); // no port: the zero struct
    spec->add_rules()->set_host("empty.example.com"); // no http rule value

    networking::IngressLoadBalancerIngress *address = ingress.mutable_status()->mutable_loadbalancer()->add_ingress();
    address->set_ip("203.0.113.7");
    networking::IngressPortStatus *port = address->add_ports();
    port->set_port(443);
    port->set_protocol("TCP");
    port->set_error("CertificateMissing");
    ingress.mutable_status()->mutable_loadbalancer()->add_ingress()->set_hostname("lb.example.com");

    compareDecoded(envelope("networking.k8s.io/v1", "Ingress", ingress), R"({
        "kind": "Ingress", "apiVersion": "networking.k8s.io/v1",
        "metadata": {"name": "static", "namespace": "web", "creationTimestamp": null},
        "spec": {
            "defaultBackend": {"resource": {"apiGroup": null, "kind": "StorageBucket", "name": "static-assets"}},
            "tls": [{"secretName": "wildcard"}],
            "rules": [
                {"host": "assets.example.com", "http": {"paths": [
                    {"path": "/img", "pathType": null, "backend": {"resource":
                        {"apiGroup": "k8s.example.com", "kind": "StorageBucket", "name": "images"}}},
                    {"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {}}}}]}},
                {"host": "empty.example.com"}]},
        "status": {"loadBalancer": {"ingress": [
            {"ip": "203.0.113.7", "ports": [{"port": 443, "protocol": "TCP", "error": "CertificateMissing"}]},
            {"hostname": "lb.example.com"}]}}
    })");
}

void TestProtobufKinds::testPodDisruptionBudgetStatus()
{
    policy::PodDisruptionBudget budget;
    newObjectMeta(budget.mutable_metadata(), "web");
    policy::PodDisruptionBudgetSpec *spec = budget.mutable_spec();
    spec->mutable_minavailable()->set_type(0);
    spec->mutable_minavailable()->set_intval(0); // a set IntOrString pointer: written as 0
    spec->mutable_selector(); // an empty selector (all pods), not a nil one
    spec->set_unhealthypodevictionpolicy("AlwaysAllow");
    policy::PodDisruptionBudgetStatus *status = budget.mutable_status();
    status->set_observedgeneration(3);
    (*status->mutable_disruptedpods())["web-1"].set_seconds(T_03_04_05);
    status->set_disruptionsallowed(1);
    status->set_currenthealthy(3);
    status->set_desiredhealthy(2);
    status->set_expectedpods(3);
    meta::Condition *allowed = status->add_conditions();
    allowed->set_type("DisruptionAllowed");
    allowed->set_status("True");
    allowed->set_observedgeneration(3);
    allowed->mutable_lasttransitiontime()->set_seconds(T_03_04_05);
    allowed->set_reason("SufficientPods");
    meta::Condition *bare = status->add_conditions();
    bare->set_type("Example");
    bare->set_status("Unknown");

    compareDecoded(envelope("policy/v1", "PodDisruptionBudget", budget), R"({
        "kind": "PodDisruptionBudget", "apiVersion": "policy/v1",
        "metadata": {"name": "web", "creationTimestamp": null},
        "spec": {"minAvailable": 0, "selector": {}, "unhealthyPodEvictionPolicy": "AlwaysAllow"},
        "status": {
            "observedGeneration": 3, "disruptedPods": {"web-1": "2025-01-02T03:04:05Z"},
            "disruptionsAllowed": 1, "currentHealthy": 3, "desiredHealthy": 2, "expectedPods": 3,
            "conditions": [
                {"type": "DisruptionAllowed", "status": "True", "observedGeneration": 3,
                 "lastTransitionTime": "2025-01-02T03:04:05Z", "reason": "SufficientPods", "message": ""},
                {"type": "Example", "status": "Unknown", "lastTransitionTime": null, "reason": "", "message": ""}]}
    })");
}

void TestProtobufKinds::testResourceQuotaScopeSelectorAndStatus()
{
    core::ResourceQuota quota;
    newObjectMeta(quota.mutable_metadata(), "high-priority");
    core::ResourceQuotaSpec *spec = quota.mutable_spec();
    (*spec->mutable_hard())["pods"].set_string("10");
    core::ScopedResourceSelectorRequirement *priority = spec->mutable_scopeselector()->add_matchexpressions();
    priority->set_scopename("PriorityClass");
    priority->set_operator_("In");
    priority->add_values("high");
    core::ScopedResourceSelectorRequirement *terminating = spec->mutable_scopeselector()->add_matchexpressions();
    terminating->set_scopename("Terminating");
    terminating->set_operator_("Exists");
    (*quota.mutable_status()->mutable_hard())["pods"].set_string("10");
    (*quota.mutable_status()->mutable_used())["pods"].set_string("3");

    compareDecoded(envelope("v1", "ResourceQuota", quota), R"({
        "kind": "ResourceQuota", "apiVersion": "v1",
        "metadata": {"name": "high-priority", "creationTimestamp": null},
        "spec": {"hard": {"pods": "10"}, "scopeSelector": {"matchExpressions": [
            {"scopeName": "PriorityClass", "operator": "In", "values": ["high"]},
            {"scopeName": "Terminating", "operator": "Exists"}]}},
        "status": {"hard": {"pods": "10"}, "used": {"pods": "3"}}
    })");
}

void TestProtobufKinds::testServiceAccountSecrets()
{
    core::ServiceAccount account;
    newObjectMeta(account.mutable_metadata(), "robot");
    account.add_secrets()->set_name("robot-token");
    core::ObjectReference *full = account.add_secrets();
    full->set_kind("Secret");
    full->set_namespace_("default");
    full->set_name("robot-extra");
    full->set_uid("s-1");
    full->set_apiversion("v1");
    full->set_resourceversion("4");
    full->set_fieldpath("data");
    account.add_imagepullsecrets()->set_name("regcred");
    account.add_imagepullsecrets(); // a reference without a name: {}
    account.set_automountserviceaccounttoken(false);

    compareDecoded(envelope("v1", "ServiceAccount", account), R"({
        "kind": "ServiceAccount", "apiVersion": "v1",
        "metadata": {"name": "robot", "creationTimestamp": null},
        "secrets": [{"name": "robot-token"},
                    {"kind": "Secret", "namespace": "default", "name": "robot-extra", "uid": "s-1",
                     "apiVersion": "v1", "resourceVersion": "4", "fieldPath": "data"}],
        "imagePullSecrets": [{"name": "regcred"}, {}],
        "automountServiceAccountToken": false
    })");
}

void TestProtobufKinds::testRbacEmptyValues()
{
    // roleRef is a value struct without omitempty, its fields too; verbs has no omitempty.
    rbac::ClusterRoleBinding binding;
    newObjectMeta(binding.mutable_metadata(), "empty");
    compareDecoded(envelope("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", binding),
                   R"({"kind":"ClusterRoleBinding","apiVersion":"rbac.authorization.k8s.io/v1",)"
                   R"("metadata":{"name":"empty","creationTimestamp":null},)"
                   R"("roleRef":{"apiGroup":"","kind":"","name":""}})");

    rbac::ClusterRole role;
    newObjectMeta(role.mutable_metadata(), "partial");
    rbac::PolicyRule *rule = role.add_rules();
    rule->add_apigroups("");
    rule->add_resources("pods");
    role.mutable_aggregationrule(); // a set pointer to an empty rule
    compareDecoded(envelope("rbac.authorization.k8s.io/v1", "ClusterRole", role),
                   R"({"kind":"ClusterRole","apiVersion":"rbac.authorization.k8s.io/v1",)"
                   R"("metadata":{"name":"partial","creationTimestamp":null},)"
                   R"("rules":[{"verbs":null,"apiGroups":[""],"resources":["pods"]}],"aggregationRule":{}})");

    rbac::RoleBinding roleBinding;
    newObjectMeta(roleBinding.mutable_metadata(), "sa");
    rbac::Subject *subject = roleBinding.add_subjects();
    subject->set_kind("ServiceAccount");
    subject->set_apigroup("");
    subject->set_name("robot");
    subject->set_namespace_("");
    roleBinding.mutable_roleref()->set_apigroup("rbac.authorization.k8s.io");
    roleBinding.mutable_roleref()->set_kind("Role");
    roleBinding.mutable_roleref()->set_name("reader");
    compareDecoded(envelope("rbac.authorization.k8s.io/v1", "RoleBinding", roleBinding),
                   R"({"kind":"RoleBinding","apiVersion":"rbac.authorization.k8s.io/v1",)"
                   R"("metadata":{"name":"sa","creationTimestamp":null},)"
                   R"("subjects":[{"kind":"ServiceAccount","name":"robot"}],)"
                   R"("roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"reader"}})");
}

QTEST_GUILESS_MAIN(TestProtobufKinds)
#include "TestProtobufKinds.moc"
