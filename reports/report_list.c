/*
 * report_list.c -- the listings: the model zoo (dlsim models) and the
 * hardware catalog (dlsim hw), as a table, CSV or JSON.
 *
 * CSV of the catalog is one table with a `type` column (device, node,
 * link, network), so that a spreadsheet can filter it; JSON has one array
 * per type.
 */
#include <string.h>

#include "reports/report.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* The zoo                                                           */
/* ---------------------------------------------------------------- */

int report_zoo(FILE *f, enum report_format fmt, struct dlsim_err *err)
{
	const char *const *n;

	if (fmt == REPORT_CSV)
		fputs("name,summary\n", f);
	else if (fmt == REPORT_JSON)
		fputs("{\"models\": [", f);
	for (n = model_zoo_names(); *n; n++) {
		const char *sum = model_zoo_summary(*n);

		if (fmt == REPORT_CSV) {
			fprintf(f, "%s,", *n);
			report_csv_field(f, sum);
			fputc('\n', f);
		} else if (fmt == REPORT_JSON) {
			fputs(n == model_zoo_names() ? "\n  {\"name\": " :
			      ",\n  {\"name\": ", f);
			report_json_string(f, *n);
			fputs(", \"summary\": ", f);
			report_json_string(f, sum);
			fputc('}', f);
		} else {
			fprintf(f, "%-17s %s\n", *n, sum);
		}
	}
	if (fmt == REPORT_JSON)
		fputs("\n]}\n", f);
	return report_check(f, err);
}

/* ---------------------------------------------------------------- */
/* The catalog                                                       */
/* ---------------------------------------------------------------- */

/* The widest of the catalog's node names, at least 16: the column that
 * holds them (devices name their node too) stays aligned. */
static int node_width(const struct hw_catalog *cat)
{
	int i, w = 16, k;

	for (i = 0; i < hw_catalog_n_nodes(cat); i++)
		if ((k = (int)strlen(hw_catalog_node(cat, i)->name)) > w)
			w = k;
	return w;
}

static void devices_table(FILE *f, const struct hw_catalog *cat)
{
	int i, w = node_width(cat);

	fprintf(f, "%-16s %-6s %-*s %s\n", "DEVICE", "KIND", w, "NODE",
		"MODEL");
	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);

		fprintf(f, "%-16s %-6s %-*s %s\n", d->name,
			hw_device_kind_name(d->kind), w, d->node, d->model);
	}
}

static void nodes_table(FILE *f, const struct hw_catalog *cat)
{
	int i, w = node_width(cat);

	fprintf(f, "\n%-*s %-22s %-18s %s\n", w, "NODE", "DEVICES", "INTRA",
		"NIC");
	for (i = 0; i < hw_catalog_n_nodes(cat); i++) {
		const struct hw_node *n = hw_catalog_node(cat, i);
		char devs[64];

		snprintf(devs, sizeof(devs), "%lld x %s",
			 (long long)n->devices_per_node, n->device);
		fprintf(f, "%-*s %-22s %-18s %s\n", w, n->name, devs,
			hw_topology_name(n->intra_topology),
			n->nic_link[0] ? n->nic_link : "-");
	}
}

static void links_table(FILE *f, const struct hw_catalog *cat)
{
	int i;

	fprintf(f, "\n%-16s %-12s %12s %10s\n", "LINK", "KIND", "GB/s/dir",
		"latency");
	for (i = 0; i < hw_catalog_n_links(cat); i++) {
		const struct hw_link *l = hw_catalog_link(cat, i);

		fprintf(f, "%-16s %-12s %12.2f %7.2f us\n", l->name, l->kind,
			l->bandwidth_Bps / 1e9, l->latency_s * 1e6);
	}
}

static void networks_table(FILE *f, const struct hw_catalog *cat)
{
	int i;

	fprintf(f, "\n%-20s %-12s %s\n", "NETWORK", "TOPOLOGY",
		"OVERSUBSCRIPTION");
	for (i = 0; i < hw_catalog_n_networks(cat); i++) {
		const struct hw_network *n = hw_catalog_network(cat, i);

		fprintf(f, "%-20s %-12s %.2f\n", n->name,
			hw_topology_name(n->topology), n->oversubscription);
	}
}

static void catalog_csv(FILE *f, const struct hw_catalog *cat)
{
	int i;

	fputs("type,name,kind,detail,bandwidth_Bps,latency_s\n", f);
	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);

		fprintf(f, "device,%s,%s,", d->name,
			hw_device_kind_name(d->kind));
		report_csv_field(f, d->model);
		fprintf(f, ",%.0f,\n", d->mem[0].bandwidth_Bps);
	}
	for (i = 0; i < hw_catalog_n_nodes(cat); i++) {
		const struct hw_node *n = hw_catalog_node(cat, i);

		fprintf(f, "node,%s,%s,%lld x %s,,\n", n->name,
			hw_topology_name(n->intra_topology),
			(long long)n->devices_per_node, n->device);
	}
	for (i = 0; i < hw_catalog_n_links(cat); i++) {
		const struct hw_link *l = hw_catalog_link(cat, i);

		fprintf(f, "link,%s,%s,,%.0f,%.9g\n", l->name, l->kind,
			l->bandwidth_Bps, l->latency_s);
	}
	for (i = 0; i < hw_catalog_n_networks(cat); i++) {
		const struct hw_network *n = hw_catalog_network(cat, i);

		fprintf(f, "network,%s,%s,oversubscription %.2f,,\n", n->name,
			hw_topology_name(n->topology), n->oversubscription);
	}
}

static void catalog_json(FILE *f, const struct hw_catalog *cat)
{
	int i;

	fputs("{\"devices\": [", f);
	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);

		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
		report_json_string(f, d->name);
		fprintf(f, ", \"kind\": \"%s\", \"node\": ",
			hw_device_kind_name(d->kind));
		report_json_string(f, d->node);
		fputs(", \"model\": ", f);
		report_json_string(f, d->model);
		fputc('}', f);
	}
	fputs("\n],\n\"nodes\": [", f);
	for (i = 0; i < hw_catalog_n_nodes(cat); i++) {
		const struct hw_node *n = hw_catalog_node(cat, i);

		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
		report_json_string(f, n->name);
		fputs(", \"device\": ", f);
		report_json_string(f, n->device);
		fprintf(f, ", \"devices_per_node\": %lld, \"topology\": \"%s\"}",
			(long long)n->devices_per_node,
			hw_topology_name(n->intra_topology));
	}
	fputs("\n],\n\"links\": [", f);
	for (i = 0; i < hw_catalog_n_links(cat); i++) {
		const struct hw_link *l = hw_catalog_link(cat, i);

		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
		report_json_string(f, l->name);
		fputs(", \"kind\": ", f);
		report_json_string(f, l->kind);
		fprintf(f, ", \"bandwidth_Bps\": %.0f, \"latency_s\": %.9g}",
			l->bandwidth_Bps, l->latency_s);
	}
	fputs("\n],\n\"networks\": [", f);
	for (i = 0; i < hw_catalog_n_networks(cat); i++) {
		const struct hw_network *n = hw_catalog_network(cat, i);

		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
		report_json_string(f, n->name);
		fprintf(f, ", \"topology\": \"%s\", \"oversubscription\": "
			"%.9g}", hw_topology_name(n->topology),
			n->oversubscription);
	}
	fputs("\n]}\n", f);
}

int report_catalog(FILE *f, enum report_format fmt,
		   const struct hw_catalog *cat, struct dlsim_err *err)
{
	if (fmt == REPORT_CSV) {
		catalog_csv(f, cat);
	} else if (fmt == REPORT_JSON) {
		catalog_json(f, cat);
	} else {
		devices_table(f, cat);
		nodes_table(f, cat);
		links_table(f, cat);
		networks_table(f, cat);
	}
	return report_check(f, err);
}
