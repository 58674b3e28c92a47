// Validates wrkbench's Kubernetes manifest (wrkbench-cli run --on kubernetes
// --manifest-only) against the Kubernetes API schema with kubernetes-models, an
// independent implementation: js-yaml reads the YAML as printed, every document
// must be a valid object of its kind. Prints one line per document; exits 1 on
// the first invalid one, with the schema's complaint.
//
//   node kubecheck.mjs MANIFEST.yaml

import fs from "fs";
import yaml from "js-yaml";
import { ConfigMap } from "kubernetes-models/v1";
import { Job } from "kubernetes-models/batch/v1";

const kinds = { "v1/ConfigMap": ConfigMap, "batch/v1/Job": Job };
const docs = yaml.loadAll(fs.readFileSync(process.argv[2], "utf8")).filter((d) => d !== null && d !== undefined);
if (docs.length === 0) {
    console.error("no documents");
    process.exit(1);
}
for (const doc of docs) {
    const Model = kinds[`${doc.apiVersion}/${doc.kind}`];
    if (!Model) {
        console.error(`unexpected ${doc.apiVersion} ${doc.kind}`);
        process.exit(1);
    }
    try {
        new Model(doc).validate();
    } catch (e) {
        console.error(`${doc.kind} ${doc.metadata && doc.metadata.name}: ${e.message}`);
        process.exit(1);
    }
    console.log(`valid ${doc.apiVersion} ${doc.kind} ${doc.metadata.name}`);
}
