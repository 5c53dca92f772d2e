// SPDX-License-Identifier: MIT
// Every built-in kind's Table columns (names, types, wide ones) and cells, as kube-apiserver
// 1.32's printers make them (shared/reference/table-output.md §5): one row per kind.
#include <QtTest/QtTest>

#include "TableTestSupport.h"
#include "api/table/Printers.h"

using nlohmann::json;
using namespace rvscope;
using namespace rvscope::api::table;
using namespace rvscope::testing;

class TestTablePrinters final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testBuiltInPrinters_data();
    void testBuiltInPrinters();
};

namespace {
// `text` with each AGO-<n> replaced by the time n seconds before NOW.
std::string withTimes(std::string text)
{
    for (std::size_t at; (at = text.find("AGO-")) != std::string::npos;) {
        const std::size_t end = text.find_first_not_of("0123456789", at + 4);
        text.replace(at, end - at, ago(std::stoll(text.substr(at + 4, end - at - 4))));
    }
    return text;
}

// A column as "Name[:type][*]": the type when it is not string, '*' for priority 1 (wide).
void printerRow(const char *tag, const char *kind, const QStringList &columns, const std::string &object,
                const std::string &cells)
{
    QTest::newRow(tag) << QString::fromLatin1(kind) << columns << QByteArray::fromStdString(withTimes(object))
                       << QByteArray::fromStdString(withTimes(cells));
}

QStringList columnList(std::initializer_list<const char *> names)
{
    QStringList list;
    for (const char *name : names)
        list << QString::fromLatin1(name);
    return list;
}
} // namespace

void TestTablePrinters::testBuiltInPrinters_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("columns");
    QTest::addColumn<QByteArray>("object");
    QTest::addColumn<QByteArray>("cells");
    const QStringList DEFAULT = columnList({"Name", "Created At:date"});
    const QStringList CONTROLLER = columnList({"Name", "Desired:integer", "Current:integer", "Ready:integer", "Age",
                                               "Containers*", "Images*", "Selector*"});
    const QStringList JOB = columnList({"Name", "Status", "Completions", "Duration", "Age", "Containers*", "Images*",
                                        "Selector*"});
    const QStringList CRON_JOB = columnList({"Name", "Schedule", "Timezone", "Suspend:boolean", "Active:integer",
                                             "Last Schedule", "Age", "Containers*", "Images*", "Selector*"});
    const QStringList BINDING = columnList({"Name", "Role", "Age", "Users*", "Groups*", "ServiceAccounts*"});
    const QStringList HPA = columnList({"Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"});
    const QStringList WEBHOOKS = columnList({"Name", "Webhooks:integer", "Age"});
    const QStringList API_SERVICE = columnList({"Name", "Service", "Available", "Age"});

    // core/v1
    printerRow("ServiceAccount", "ServiceAccount", columnList({"Name", "Secrets", "Age"}),
               R"j({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"builder","namespace":"default",
                   "creationTimestamp":"AGO-300"},"secrets":[{"name":"builder-token"}]})j",
               R"j(["builder",1,"5m"])j");
    const QStringList ENDPOINTS = columnList({"Name", "Endpoints", "Age"});
    printerRow("Endpoints, 3 of 6 shown", "Endpoints", ENDPOINTS,
               R"j({"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"web","namespace":"default",
                   "creationTimestamp":"AGO-300"},"subsets":[{"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"},
                   {"ip":"10.0.0.3"}],"ports":[{"name":"http","port":80,"protocol":"TCP"},
                   {"name":"https","port":443,"protocol":"TCP"}]}]})j",
               R"j(["web","10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 3 more...","5m"])j");
    printerRow("Endpoints, IPv6, headless, not ready", "Endpoints", ENDPOINTS,
               R"j({"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"dns","namespace":"kube-system",
                   "creationTimestamp":"AGO-300"},"subsets":[{"addresses":[{"ip":"fd00::1"}],
                   "ports":[{"name":"dns","port":53,"protocol":"UDP"}]},{"addresses":[{"ip":"10.0.0.9"}]},
                   {"notReadyAddresses":[{"ip":"10.0.0.8"}],"ports":[{"port":53}]}]})j",
               R"j(["dns","[fd00::1]:53,10.0.0.9","5m"])j");
    printerRow("Endpoints, none", "Endpoints", ENDPOINTS,
               R"j({"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"idle","namespace":"default",
                   "creationTimestamp":"AGO-300"}})j",
               R"j(["idle","<none>","5m"])j");
    printerRow("ReplicationController", "ReplicationController", CONTROLLER,
               R"j({"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"nginx","namespace":"default",
                   "creationTimestamp":"AGO-180000"},"spec":{"replicas":3,"selector":{"app":"nginx"},
                   "template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"name":"nginx",
                   "image":"nginx:1.27"}]}}},"status":{"replicas":3,"readyReplicas":2}})j",
               R"j(["nginx",3,3,2,"2d2h","nginx","nginx:1.27","app=nginx"])j");
    const QStringList PV = columnList({"Name", "Capacity", "Access Modes", "Reclaim Policy", "Status", "Claim",
                                       "StorageClass", "VolumeAttributesClass", "Reason", "Age", "VolumeMode*"});
    printerRow("PersistentVolume, bound", "PersistentVolume", PV,
               R"j({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-data",
                   "creationTimestamp":"AGO-259200"},"spec":{"capacity":{"storage":"10Gi"},
                   "accessModes":["ReadWriteMany","ReadWriteOnce","ReadWriteOnce"],
                   "persistentVolumeReclaimPolicy":"Retain","storageClassName":"standard","volumeMode":"Filesystem",
                   "claimRef":{"kind":"PersistentVolumeClaim","namespace":"default","name":"data"},
                   "hostPath":{"path":"/data"}},"status":{"phase":"Bound"}})j",
               R"j(["pv-data","10Gi","RWO,RWX","Retain","Bound","default/data","standard","<unset>","","3d",
                   "Filesystem"])j");
    printerRow("PersistentVolume, terminating", "PersistentVolume", PV,
               R"j({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-old",
                   "creationTimestamp":"AGO-600","deletionTimestamp":"AGO-10",
                   "annotations":{"volume.beta.kubernetes.io/storage-class":"slow"}},
                   "spec":{"capacity":{"storage":"1.5Gi"},"accessModes":["ReadWriteOncePod"],
                   "persistentVolumeReclaimPolicy":"Delete","storageClassName":"fast",
                   "volumeAttributesClassName":"gold","csi":{"driver":"ebs.csi.aws.com","volumeHandle":"vol-1"}},
                   "status":{"phase":"Failed","reason":"ReclaimFailed"}})j",
               R"j(["pv-old","1536Mi","RWOP","Delete","Terminating","","slow","gold","ReclaimFailed","10m",
                   "<unset>"])j");
    const QStringList PVC = columnList({"Name", "Status", "Volume", "Capacity", "Access Modes", "StorageClass",
                                        "VolumeAttributesClass", "Age", "VolumeMode*"});
    printerRow("PersistentVolumeClaim, bound", "PersistentVolumeClaim", PVC,
               R"j({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"default",
                   "creationTimestamp":"AGO-300"},"spec":{"accessModes":["ReadWriteOnce"],
                   "resources":{"requests":{"storage":"1Gi"}},"storageClassName":"standard","volumeName":"pv-data",
                   "volumeMode":"Filesystem"},"status":{"phase":"Bound","accessModes":["ReadWriteOnce"],
                   "capacity":{"storage":"1024Mi"}}})j",
               R"j(["data","Bound","pv-data","1Gi","RWO","standard","<unset>","5m","Filesystem"])j");
    printerRow("PersistentVolumeClaim, pending, empty beta class", "PersistentVolumeClaim", PVC,
               R"j({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"scratch",
                   "namespace":"default","creationTimestamp":"AGO-300",
                   "annotations":{"volume.beta.kubernetes.io/storage-class":""}},"spec":{"accessModes":
                   ["ReadWriteOnce"],"resources":{"requests":{"storage":"5Gi"}},"storageClassName":"fast"},
                   "status":{"phase":"Pending"}})j",
               R"j(["scratch","Pending","","","","","<unset>","5m","<unset>"])j");
    printerRow("PodTemplate", "PodTemplate", columnList({"Name", "Containers", "Images", "Pod Labels"}),
               R"j({"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"web-template","namespace":"default",
                   "creationTimestamp":"AGO-60"},"template":{"metadata":{"labels":{"tier":"frontend","app":"web"}},
                   "spec":{"containers":[{"name":"web","image":"nginx:1.27"},
                   {"name":"proxy","image":"envoyproxy/envoy:v1.31"}]}}})j",
               R"j(["web-template","web,proxy","nginx:1.27,envoyproxy/envoy:v1.31","app=web,tier=frontend"])j");
    printerRow("LimitRange (default convertor)", "LimitRange", DEFAULT,
               R"j({"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"limits","namespace":"default",
                   "creationTimestamp":"2025-01-01T10:00:00Z"},"spec":{"limits":[{"type":"Container",
                   "default":{"cpu":"500m"}}]}})j",
               R"j(["limits","2025-01-01T10:00:00Z"])j");
    printerRow("ResourceQuota", "ResourceQuota", columnList({"Name", "Age", "Request", "Limit"}),
               R"j({"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"compute","namespace":"default",
                   "creationTimestamp":"AGO-300"},"spec":{"hard":{"pods":"10"}},"status":{"hard":{"pods":"10",
                   "requests.cpu":"1","requests.memory":"1Gi","limits.cpu":"2","limits.memory":"2Gi",
                   "count/deployments.apps":"5"},"used":{"pods":"1","requests.cpu":"100m",
                   "requests.memory":"512Mi","limits.cpu":"200m","limits.memory":"1024Mi"}}})j",
               R"j(["compute","5m","count/deployments.apps: 0/5, pods: 1/10, requests.cpu: 100m/1, requests.memory: 512Mi/1Gi",
                   "limits.cpu: 200m/2, limits.memory: 1Gi/2Gi"])j");

    // apps/v1
    printerRow("Deployment", "Deployment",
               columnList({"Name", "Ready", "Up-to-date", "Available", "Age", "Containers*", "Images*", "Selector*"}),
               R"j({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default",
                   "creationTimestamp":"AGO-300"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
                   "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web",
                   "image":"nginx:1.27"},{"name":"log","image":"busybox:1.36"}]}}},"status":{"replicas":3,
                   "updatedReplicas":3,"readyReplicas":2,"availableReplicas":2}})j",
               R"j(["web","2/3",3,2,"5m","web,log","nginx:1.27,busybox:1.36","app=web"])j");
    printerRow("ReplicaSet", "ReplicaSet", CONTROLLER,
               R"j({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-7d9f8c","namespace":"default",
                   "creationTimestamp":"AGO-3600"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web",
                   "pod-template-hash":"7d9f8c"}},"template":{"metadata":{"labels":{"app":"web",
                   "pod-template-hash":"7d9f8c"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}},
                   "status":{"replicas":2,"readyReplicas":1}})j",
               R"j(["web-7d9f8c",2,2,1,"60m","web","nginx:1.27","app=web,pod-template-hash=7d9f8c"])j");
    printerRow("StatefulSet", "StatefulSet", columnList({"Name", "Ready", "Age", "Containers*", "Images*"}),
               R"j({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","namespace":"default",
                   "creationTimestamp":"AGO-600"},"spec":{"replicas":3,"serviceName":"db","selector":{"matchLabels":
                   {"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[
                   {"name":"postgres","image":"postgres:16"}]}}},"status":{"replicas":2,"readyReplicas":1}})j",
               R"j(["db","1/3","10m","postgres","postgres:16"])j");
    const QStringList DAEMON_SET = columnList({"Name", "Desired:integer", "Current:integer", "Ready:integer",
                                               "Up-to-date:integer", "Available:integer", "Node Selector", "Age",
                                               "Containers*", "Images*", "Selector*"});
    printerRow("DaemonSet", "DaemonSet", DAEMON_SET,
               R"j({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"fluentd","namespace":"kube-system",
                   "creationTimestamp":"AGO-7200"},"spec":{"selector":{"matchLabels":{"name":"fluentd"}},
                   "template":{"metadata":{"labels":{"name":"fluentd"}},"spec":{"nodeSelector":
                   {"kubernetes.io/os":"linux"},"containers":[{"name":"fluentd","image":"fluent/fluentd:v1.16"}]}}},
                   "status":{"desiredNumberScheduled":3,"currentNumberScheduled":3,"numberReady":2,
                   "updatedNumberScheduled":3,"numberAvailable":2}})j",
               R"j(["fluentd",3,3,2,3,2,"kubernetes.io/os=linux","120m","fluentd","fluent/fluentd:v1.16",
                   "name=fluentd"])j");
    printerRow("DaemonSet, no node selector, no status", "DaemonSet", DAEMON_SET,
               R"j({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"kube-proxy",
                   "namespace":"kube-system","creationTimestamp":"AGO-300"},"spec":{"selector":{"matchLabels":
                   {"k8s-app":"kube-proxy"}},"template":{"metadata":{"labels":{"k8s-app":"kube-proxy"}},
                   "spec":{"containers":[{"name":"kube-proxy","image":"registry.k8s.io/kube-proxy:v1.32.0"}]}}}})j",
               R"j(["kube-proxy",0,0,0,0,0,"<none>","5m","kube-proxy","registry.k8s.io/kube-proxy:v1.32.0",
                   "k8s-app=kube-proxy"])j");
    const QStringList REVISION = columnList({"Name", "Controller", "Revision", "Age"});
    printerRow("ControllerRevision", "ControllerRevision", REVISION,
               R"j({"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"fluentd-5d8c7b",
                   "namespace":"kube-system","creationTimestamp":"AGO-7200","ownerReferences":[{"apiVersion":"v1",
                   "kind":"Pod","name":"not-the-controller","uid":"1"},{"apiVersion":"apps/v1","kind":"DaemonSet",
                   "name":"fluentd","uid":"2","controller":true}]},"revision":2,"data":{}})j",
               R"j(["fluentd-5d8c7b","daemonset.apps/fluentd",2,"120m"])j");
    printerRow("ControllerRevision, no controller", "ControllerRevision", REVISION,
               R"j({"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"orphan-1",
                   "namespace":"default","creationTimestamp":"AGO-300"},"revision":1})j",
               R"j(["orphan-1","<none>",1,"5m"])j");

    // batch/v1
    printerRow("Job, complete", "Job", JOB,
               R"j({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi","namespace":"default",
                   "creationTimestamp":"AGO-130"},"spec":{"completions":1,"parallelism":1,"selector":{"matchLabels":
                   {"batch.kubernetes.io/controller-uid":"8f0c"}},"template":{"spec":{"containers":[{"name":"pi",
                   "image":"perl:5.34.0"}],"restartPolicy":"Never"}}},"status":{"startTime":"AGO-129",
                   "completionTime":"AGO-120","succeeded":1,"conditions":[{"type":"SuccessCriteriaMet",
                   "status":"True"},{"type":"Complete","status":"True"}]}})j",
               R"j(["pi","Complete","1/1","9s","2m10s","pi","perl:5.34.0","batch.kubernetes.io/controller-uid=8f0c"])j");
    printerRow("Job, running in parallel", "Job", JOB,
               R"j({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"crunch","namespace":"default",
                   "creationTimestamp":"AGO-70"},"spec":{"parallelism":3,"template":{"spec":{"containers":[
                   {"name":"worker","image":"busybox:1.36"}],"restartPolicy":"Never"}}},
                   "status":{"startTime":"AGO-65","active":3,"succeeded":1}})j",
               R"j(["crunch","Running","1/1 of 3","65s","70s","worker","busybox:1.36","<none>"])j");
    printerRow("Job, suspended before starting", "Job", JOB,
               R"j({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"batch-5","namespace":"default",
                   "creationTimestamp":"AGO-300"},"spec":{"completions":5,"parallelism":2,"suspend":true,
                   "template":{"spec":{"containers":[{"name":"task","image":"busybox:1.36"}]}}},
                   "status":{"conditions":[{"type":"Suspended","status":"True"}]}})j",
               R"j(["batch-5","Suspended","0/5","","5m","task","busybox:1.36","<none>"])j");
    printerRow("Job, failed while deleted", "Job", JOB,
               R"j({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"flaky","namespace":"default",
                   "creationTimestamp":"AGO-420","deletionTimestamp":"AGO-5"},"spec":{"template":{"spec":{
                   "containers":[{"name":"app","image":"flaky:1"}]}}},"status":{"startTime":"AGO-400","failed":7,
                   "conditions":[{"type":"FailureTarget","status":"True"},{"type":"Failed","status":"True"}]}})j",
               R"j(["flaky","Failed","0/1","6m40s","7m","app","flaky:1","<none>"])j");
    printerRow("Job, only the first condition of a type counts", "Job", JOB,
               R"j({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"retry","namespace":"default",
                   "creationTimestamp":"AGO-300"},"spec":{"template":{"spec":{"containers":[{"name":"app",
                   "image":"retry:2"}]}}},"status":{"conditions":[{"type":"Complete","status":"False"},
                   {"type":"Complete","status":"True"}]}})j",
               R"j(["retry","Running","0/1","","5m","app","retry:2","<none>"])j");
    printerRow("CronJob, active", "CronJob", CRON_JOB,
               R"j({"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"hello","namespace":"default",
                   "creationTimestamp":"AGO-86400"},"spec":{"schedule":"*/5 * * * *","suspend":false,
                   "jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"hello","image":"busybox:1.36"}],
                   "restartPolicy":"OnFailure"}}}}},"status":{"active":[{"kind":"Job","name":"hello-29000000",
                   "namespace":"default"}],"lastScheduleTime":"AGO-90"}})j",
               R"j(["hello","*/5 * * * *","<none>","False",1,"90s","24h","hello","busybox:1.36","<none>"])j");
    printerRow("CronJob, time zone, suspend unset, never scheduled", "CronJob", CRON_JOB,
               R"j({"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"nightly","namespace":"default",
                   "creationTimestamp":"AGO-300"},"spec":{"schedule":"0 3 * * *","timeZone":"Europe/Berlin",
                   "jobTemplate":{"spec":{"selector":{"matchLabels":{"app":"backup"}},"template":{"spec":{
                   "containers":[{"name":"backup","image":"restic/restic:0.17"}]}}}}}})j",
               R"j(["nightly","0 3 * * *","Europe/Berlin","<unset>",0,"<none>","5m","backup","restic/restic:0.17",
                   "app=backup"])j");

    // discovery.k8s.io/v1, networking.k8s.io/v1
    const QStringList ENDPOINT_SLICE = columnList({"Name", "AddressType", "Ports", "Endpoints", "Age"});
    printerRow("EndpointSlice", "EndpointSlice", ENDPOINT_SLICE,
               R"j({"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"web-x7k2p",
                   "namespace":"default","creationTimestamp":"AGO-300","labels":{"kubernetes.io/service-name":"web"}},
                   "addressType":"IPv4","ports":[{"name":"http","port":80,"protocol":"TCP"},{"name":"metrics",
                   "protocol":"TCP"},{"protocol":"TCP"},{"name":"grpc","port":9090}],"endpoints":[{"addresses":
                   ["10.0.0.1"],"conditions":{"ready":true}},{"addresses":["10.0.0.2","10.0.0.3"]},
                   {"addresses":["10.0.0.4"]},{"addresses":["10.0.0.5"]}]})j",
               R"j(["web-x7k2p","IPv4","80,metrics,* + 1 more...","10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...","5m"])j");
    printerRow("EndpointSlice, empty", "EndpointSlice", ENDPOINT_SLICE,
               R"j({"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"idle-v6",
                   "namespace":"default","creationTimestamp":"AGO-300"},"addressType":"IPv6","endpoints":[]})j",
               R"j(["idle-v6","IPv6","<unset>","<unset>","5m"])j");
    const QStringList INGRESS = columnList({"Name", "Class", "Hosts", "Address", "Ports", "Age"});
    printerRow("Ingress, TLS and a load balancer", "Ingress", INGRESS,
               R"j({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"web","namespace":"default",
                   "creationTimestamp":"AGO-300"},"spec":{"ingressClassName":"nginx","tls":[{"hosts":
                   ["a.example.com"],"secretName":"web-tls"}],"rules":[{"host":"a.example.com","http":{"paths":[
                   {"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}},
                   {"host":"b.example.com"}]},"status":{"loadBalancer":{"ingress":[{"hostname":"lb.example.com"},
                   {"ip":"203.0.113.10"},{"ip":"203.0.113.10"}]}}})j",
               R"j(["web","nginx","a.example.com,b.example.com","203.0.113.10,lb.example.com","80, 443","5m"])j");
    printerRow("Ingress, more rules than shown", "Ingress", INGRESS,
               R"j({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"many-hosts",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"rules":[{"host":"h1.example.com"},
                   {"host":"h2.example.com"},{"http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":
                   {"name":"web","port":{"number":80}}}}]}},{"host":"h3.example.com"},{"host":"h4.example.com"}]}})j",
               R"j(["many-hosts","<none>","h1.example.com,h2.example.com,h3.example.com + 2 more...","","80","5m"])j");
    printerRow("Ingress, default backend only", "Ingress", INGRESS,
               R"j({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"catch-all",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"defaultBackend":{"service":
                   {"name":"web","port":{"number":80}}}}})j",
               R"j(["catch-all","<none>","*","","80","5m"])j");
    const QStringList INGRESS_CLASS = columnList({"Name", "Controller", "Parameters", "Age"});
    printerRow("IngressClass, parameters", "IngressClass", INGRESS_CLASS,
               R"j({"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"external-lb",
                   "creationTimestamp":"AGO-300"},"spec":{"controller":"example.com/ingress-controller",
                   "parameters":{"apiGroup":"k8s.example.com","kind":"IngressParameters","name":"external-lb",
                   "scope":"Cluster"}}})j",
               R"j(["external-lb","example.com/ingress-controller","IngressParameters.k8s.example.com/external-lb",
                   "5m"])j");
    printerRow("IngressClass, no parameters", "IngressClass", INGRESS_CLASS,
               R"j({"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"nginx",
                   "creationTimestamp":"AGO-300","annotations":{"ingressclass.kubernetes.io/is-default-class":
                   "true"}},"spec":{"controller":"k8s.io/ingress-nginx"}})j",
               R"j(["nginx","k8s.io/ingress-nginx","<none>","5m"])j");
    const QStringList NETWORK_POLICY = columnList({"Name", "Pod-Selector", "Age"});
    printerRow("NetworkPolicy, every pod", "NetworkPolicy", NETWORK_POLICY,
               R"j({"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"default-deny",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"podSelector":{},
                   "policyTypes":["Ingress"]}})j",
               R"j(["default-deny","<none>","5m"])j");
    printerRow("NetworkPolicy, selected pods", "NetworkPolicy", NETWORK_POLICY,
               R"j({"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"allow-web",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"podSelector":{"matchLabels":
                   {"role":"web"},"matchExpressions":[{"key":"env","operator":"In","values":["staging","prod"]}]},
                   "ingress":[{"from":[{"podSelector":{"matchLabels":{"role":"frontend"}}}]}]}})j",
               R"j(["allow-web","env in (prod,staging),role=web","5m"])j");

    // rbac.authorization.k8s.io/v1
    printerRow("Role (default convertor)", "Role", DEFAULT,
               R"j({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"pod-reader",
                   "namespace":"default","creationTimestamp":"2025-03-01T08:30:00Z"},"rules":[{"apiGroups":[""],
                   "resources":["pods"],"verbs":["get","list","watch"]}]})j",
               R"j(["pod-reader","2025-03-01T08:30:00Z"])j");
    printerRow("ClusterRole (default convertor)", "ClusterRole", DEFAULT,
               R"j({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"view",
                   "creationTimestamp":"2025-03-01T08:30:00Z"},"rules":[{"apiGroups":[""],"resources":["pods"],
                   "verbs":["get","list","watch"]}]})j",
               R"j(["view","2025-03-01T08:30:00Z"])j");
    printerRow("RoleBinding", "RoleBinding", BINDING,
               R"j({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"read-pods",
                   "namespace":"default","creationTimestamp":"AGO-300"},"roleRef":{"apiGroup":
                   "rbac.authorization.k8s.io","kind":"Role","name":"pod-reader"},"subjects":[{"kind":"User",
                   "name":"jane","apiGroup":"rbac.authorization.k8s.io"},{"kind":"Group","name":"devs",
                   "apiGroup":"rbac.authorization.k8s.io"},{"kind":"ServiceAccount","name":"builder",
                   "namespace":"ci"},{"kind":"User","name":"bob","apiGroup":"rbac.authorization.k8s.io"}]})j",
               R"j(["read-pods","Role/pod-reader","5m","jane, bob","devs","ci/builder"])j");
    printerRow("ClusterRoleBinding", "ClusterRoleBinding", BINDING,
               R"j({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{
                   "name":"cluster-admin","creationTimestamp":"AGO-31536000"},"roleRef":{"apiGroup":
                   "rbac.authorization.k8s.io","kind":"ClusterRole","name":"cluster-admin"},"subjects":[
                   {"kind":"Group","name":"system:masters","apiGroup":"rbac.authorization.k8s.io"}]})j",
               R"j(["cluster-admin","ClusterRole/cluster-admin","365d","","system:masters",""])j");

    // policy/v1, autoscaling (v2 shape)
    const QStringList PDB = columnList({"Name", "Min Available", "Max Unavailable", "Allowed Disruptions:integer",
                                        "Age"});
    printerRow("PodDisruptionBudget, minAvailable", "PodDisruptionBudget", PDB,
               R"j({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web-pdb",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"minAvailable":2,"selector":
                   {"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":1,"currentHealthy":3,
                   "desiredHealthy":2,"expectedPods":3}})j",
               R"j(["web-pdb","2","N/A",1,"5m"])j");
    printerRow("PodDisruptionBudget, maxUnavailable percent", "PodDisruptionBudget", PDB,
               R"j({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"api-pdb",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"maxUnavailable":"25%",
                   "selector":{"matchLabels":{"app":"api"}}}})j",
               R"j(["api-pdb","N/A","25%",0,"5m"])j");
    printerRow("HorizontalPodAutoscaler, resources", "HorizontalPodAutoscaler", HPA,
               R"j({"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"scaleTargetRef":{"apiVersion":
                   "apps/v1","kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":10,"metrics":[
                   {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization",
                   "averageUtilization":80}}},{"type":"Resource","resource":{"name":"memory","target":{"type":
                   "AverageValue","averageValue":"500Mi"}}}]},"status":{"currentReplicas":3,"desiredReplicas":3,
                   "currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":12,
                   "averageValue":"60m"}}}]}})j",
               R"j(["web","Deployment/web","cpu: 12%/80%, memory: <unknown>/500Mi","2",10,3,"5m"])j");
    printerRow("HorizontalPodAutoscaler, pods and external", "HorizontalPodAutoscaler", HPA,
               R"j({"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"queue-worker",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"scaleTargetRef":{"apiVersion":
                   "apps/v1","kind":"Deployment","name":"queue-worker"},"maxReplicas":20,"metrics":[{"type":"Pods",
                   "pods":{"metric":{"name":"jobs_per_second"},"target":{"type":"AverageValue","averageValue":"1k"}}},
                   {"type":"External","external":{"metric":{"name":"queue_depth"},"target":{"type":"AverageValue",
                   "averageValue":"30"}}}]},"status":{"currentReplicas":4,"currentMetrics":[{"type":"Pods","pods":{
                   "metric":{"name":"jobs_per_second"},"current":{"averageValue":"1.5"}}},{"type":"External",
                   "external":{"metric":{"name":"queue_depth"},"current":{"averageValue":"25","value":"100"}}}]}})j",
               R"j(["queue-worker","Deployment/queue-worker","1500m/1k, 25/30 (avg)","<unset>",20,4,"5m"])j");
    printerRow("HorizontalPodAutoscaler, more metrics than shown", "HorizontalPodAutoscaler", HPA,
               R"j({"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"mixed",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"scaleTargetRef":{"apiVersion":
                   "apps/v1","kind":"StatefulSet","name":"mixed"},"minReplicas":1,"maxReplicas":5,"metrics":[
                   {"type":"Object","object":{"describedObject":{"apiVersion":"networking.k8s.io/v1","kind":"Ingress",
                   "name":"web"},"metric":{"name":"requests_per_second"},"target":{"type":"Value","value":"10k"}}},
                   {"type":"ContainerResource","containerResource":{"name":"cpu","container":"app","target":{"type":
                   "Utilization","averageUtilization":60}}},{"type":"Resource","resource":{"name":"memory",
                   "target":{"type":"Utilization"}}}]},"status":{"currentReplicas":1,"currentMetrics":[{"type":
                   "Object","object":{"describedObject":{"apiVersion":"networking.k8s.io/v1","kind":"Ingress",
                   "name":"web"},"metric":{"name":"requests_per_second"},"current":{"value":"12000"}}}]}})j",
               R"j(["mixed","StatefulSet/mixed","12k/10k, cpu: <unknown>/60% + 1 more...","1",5,1,"5m"])j");
    printerRow("HorizontalPodAutoscaler, no metrics", "HorizontalPodAutoscaler", HPA,
               R"j({"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"idle",
                   "namespace":"default","creationTimestamp":"AGO-300"},"spec":{"scaleTargetRef":{"apiVersion":
                   "apps/v1","kind":"Deployment","name":"idle"},"minReplicas":1,"maxReplicas":3}})j",
               R"j(["idle","Deployment/idle","<none>","1",3,0,"5m"])j");

    // storage.k8s.io/v1, scheduling.k8s.io/v1
    const QStringList STORAGE_CLASS = columnList({"Name", "Provisioner", "ReclaimPolicy", "VolumeBindingMode",
                                                  "AllowVolumeExpansion", "Age"});
    printerRow("StorageClass, default", "StorageClass", STORAGE_CLASS,
               R"j({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"standard",
                   "creationTimestamp":"AGO-2592000","annotations":{"storageclass.kubernetes.io/is-default-class":
                   "true"}},"provisioner":"rancher.io/local-path","volumeBindingMode":"WaitForFirstConsumer"})j",
               R"j(["standard (default)","rancher.io/local-path","Delete","WaitForFirstConsumer",false,"30d"])j");
    printerRow("StorageClass, expandable", "StorageClass", STORAGE_CLASS,
               R"j({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"fast",
                   "creationTimestamp":"AGO-300","annotations":{"storageclass.beta.kubernetes.io/is-default-class":
                   "false"}},"provisioner":"ebs.csi.aws.com","parameters":{"type":"gp3"},"reclaimPolicy":"Retain",
                   "allowVolumeExpansion":true})j",
               R"j(["fast","ebs.csi.aws.com","Retain","Immediate",true,"5m"])j");
    const QStringList PRIORITY_CLASS = columnList({"Name", "Value:integer", "Global-Default:boolean", "Age",
                                                   "PreemptionPolicy"});
    printerRow("PriorityClass", "PriorityClass", PRIORITY_CLASS,
               R"j({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high-priority",
                   "creationTimestamp":"AGO-300"},"value":1000000,"globalDefault":false,
                   "description":"For critical pods."})j",
               R"j(["high-priority",1000000,false,"5m",""])j");
    printerRow("PriorityClass, global default, never preempts", "PriorityClass", PRIORITY_CLASS,
               R"j({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"batch-low",
                   "creationTimestamp":"AGO-300"},"value":-10,"globalDefault":true,"preemptionPolicy":"Never"})j",
               R"j(["batch-low",-10,true,"5m","Never"])j");

    // admissionregistration.k8s.io/v1, apiregistration.k8s.io/v1
    printerRow("ValidatingWebhookConfiguration", "ValidatingWebhookConfiguration", WEBHOOKS,
               R"j({"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration",
                   "metadata":{"name":"policy.example.com","creationTimestamp":"AGO-300"},"webhooks":[{"name":
                   "pods.policy.example.com","admissionReviewVersions":["v1"],"sideEffects":"None","clientConfig":
                   {"service":{"namespace":"policy","name":"webhook"}}},{"name":"deployments.policy.example.com",
                   "admissionReviewVersions":["v1"],"sideEffects":"None","clientConfig":{"url":
                   "https://policy.example.com/validate"}}]})j",
               R"j(["policy.example.com",2,"5m"])j");
    printerRow("MutatingWebhookConfiguration", "MutatingWebhookConfiguration", WEBHOOKS,
               R"j({"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration",
                   "metadata":{"name":"istio-sidecar-injector","creationTimestamp":"AGO-300"},"webhooks":[{"name":
                   "sidecar-injector.istio.io","admissionReviewVersions":["v1"],"sideEffects":"None",
                   "clientConfig":{"service":{"namespace":"istio-system","name":"istiod"}}}]})j",
               R"j(["istio-sidecar-injector",1,"5m"])j");
    printerRow("MutatingWebhookConfiguration, no webhooks", "MutatingWebhookConfiguration", WEBHOOKS,
               R"j({"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration",
                   "metadata":{"name":"empty","creationTimestamp":"AGO-300"}})j",
               R"j(["empty",0,"5m"])j");
    printerRow("APIService, unavailable with a reason", "APIService", API_SERVICE,
               R"j({"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":
                   "v1beta1.metrics.k8s.io","creationTimestamp":"AGO-300"},"spec":{"service":{"namespace":
                   "kube-system","name":"metrics-server","port":443},"group":"metrics.k8s.io","version":"v1beta1",
                   "groupPriorityMinimum":100,"versionPriority":100},"status":{"conditions":[{"type":"Available",
                   "status":"False","reason":"MissingEndpoints","message":"no endpoints"}]}})j",
               R"j(["v1beta1.metrics.k8s.io","kube-system/metrics-server","False (MissingEndpoints)","5m"])j");
    printerRow("APIService, local", "APIService", API_SERVICE,
               R"j({"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1.apps",
                   "creationTimestamp":"AGO-300"},"spec":{"group":"apps","version":"v1","groupPriorityMinimum":17800,
                   "versionPriority":15},"status":{"conditions":[{"type":"Available","status":"True",
                   "reason":"Local","message":"Local APIServices are always available"}]}})j",
               R"j(["v1.apps","Local","True","5m"])j");
    printerRow("APIService, unavailable without a reason", "APIService", API_SERVICE,
               R"j({"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":
                   "v1beta1.custom.metrics.k8s.io","creationTimestamp":"AGO-300"},"spec":{"service":{"namespace":
                   "monitoring","name":"prometheus-adapter"},"group":"custom.metrics.k8s.io","version":"v1beta1"},
                   "status":{"conditions":[{"type":"Available","status":"False"}]}})j",
               R"j(["v1beta1.custom.metrics.k8s.io","monitoring/prometheus-adapter","False","5m"])j");
    printerRow("APIService, no condition yet", "APIService", API_SERVICE,
               R"j({"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":
                   "v1alpha1.example.com","creationTimestamp":"AGO-300"},"spec":{"service":{"namespace":"example",
                   "name":"api"},"group":"example.com","version":"v1alpha1"}})j",
               R"j(["v1alpha1.example.com","example/api","Unknown","5m"])j");
}

void TestTablePrinters::testBuiltInPrinters()
{
    QFETCH(QString, kind);
    QFETCH(QStringList, columns);
    QFETCH(QByteArray, object);
    QFETCH(QByteArray, cells);
    const Printer printer = printerFor(typeOf(kind.toStdString()));
    QStringList actual;
    for (const Column &column : printer.columns) {
        QString text = QString::fromStdString(column.name);
        if (column.type != "string")
            text += QLatin1Char(':') + QString::fromStdString(column.type);
        if (column.priority == 1)
            text += QLatin1Char('*');
        actual << text;
        QCOMPARE(column.format == "name", column.name == "Name");
        QVERIFY2(!column.description.empty(), column.name.c_str());
    }
    QCOMPARE(actual, columns);
    QCOMPARE(QByteArray::fromStdString(printer.cells(json::parse(object.toStdString()), NOW).dump()),
             QByteArray::fromStdString(json::parse(cells.toStdString()).dump()));
}

QTEST_GUILESS_MAIN(TestTablePrinters)
#include "TestTablePrinters.moc"
