{{/* The release's full name (at most 63 characters, a DNS label). */}}
{{- define "kafkaops-operate.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "kafkaops-operate.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "kafkaops-operate.labels" -}}
{{ include "kafkaops-operate.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "kafkaops-operate.cluster" -}}
{{- required "strimzi.cluster: the name of the Strimzi Kafka resource is required" .Values.strimzi.cluster -}}
{{- end -}}

{{- define "kafkaops-operate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "kafkaops-operate.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "kafkaops-operate.image" -}}
{{- $img := .Values.image -}}
{{- if $img.digest -}}
{{- printf "%s@%s" $img.repository $img.digest -}}
{{- else -}}
{{- printf "%s:%s" $img.repository (default .Chart.AppVersion $img.tag) -}}
{{- end -}}
{{- end -}}

{{/* operate's own defaults with --strimzi: kafkaops-operate-<cluster>. */}}
{{- define "kafkaops-operate.lease" -}}
{{- default (printf "kafkaops-operate-%s" (include "kafkaops-operate.cluster" .)) .Values.operate.lease -}}
{{- end -}}
{{- define "kafkaops-operate.stateConfigMap" -}}
{{- default (printf "kafkaops-operate-%s" (include "kafkaops-operate.cluster" .)) .Values.operate.stateConfigMap -}}
{{- end -}}

{{- define "kafkaops-operate.policyConfigMap" -}}
{{- default (printf "%s-policy" (include "kafkaops-operate.fullname" .)) .Values.existingPolicyConfigMap -}}
{{- end -}}

{{/*
Seconds of a duration written as operate takes it, in the forms the values use: one or more
<number><unit> with units h, m, s (e.g. 30s, 10m, 1m30s).
*/}}
{{- define "kafkaops-operate.seconds" -}}
{{- $d := toString . -}}
{{- if not (regexMatch "^([0-9]+(h|m|s))+$" $d) -}}
{{- fail (printf "%q is not a duration of the form 30s, 10m, 1h or 1m30s" $d) -}}
{{- end -}}
{{- $total := 0 -}}
{{- range regexFindAll "[0-9]+(h|m|s)" $d -1 -}}
{{- $n := int (regexFind "^[0-9]+" .) -}}
{{- $unit := regexFind "(h|m|s)$" . -}}
{{- $total = add $total (mul $n (get (dict "h" 3600 "m" 60 "s" 1) $unit)) -}}
{{- end -}}
{{- $total -}}
{{- end -}}

{{/* The label matchers of this release's series, for the alert rules. */}}
{{- define "kafkaops-operate.seriesSelector" -}}
{{- default (printf "namespace=%q, pod=~%q" .Release.Namespace (printf "%s-.+" (include "kafkaops-operate.fullname" .))) .Values.prometheusRule.selector -}}
{{- end -}}

{{/*
The rules of the Role in files/operate-rbac.yaml, a link to examples/operate/rbac.yaml: the Role
tests/kube_operate.rs compares with the requests operate makes (its audit log). One list, kept
there.
*/}}
{{- define "kafkaops-operate.rules" -}}
{{- $rules := list -}}
{{- range regexSplit "(?m)^---[ \t]*$" (.Files.Get "files/operate-rbac.yaml") -1 -}}
{{- $doc := fromYaml . -}}
{{- if eq (toString (get $doc "kind")) "Role" -}}
{{- $rules = get $doc "rules" -}}
{{- end -}}
{{- end -}}
{{- if not $rules -}}
{{- fail "files/operate-rbac.yaml (examples/operate/rbac.yaml) holds no Role with rules" -}}
{{- end -}}
{{- toYaml $rules -}}
{{- end -}}
