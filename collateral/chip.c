/* chip.c - a chip's manifest, read by collateral/design, and the collateral
 * it names (see chip.h). */
#include "chip.h"

#include <string.h>

#include "ic.h"

/* The routing graph and the configuration map, checked against the manifest,
 * its cores and each other (collateral/ic). 0 with errors in d. */
static int load_interconnect(Chip *chip, Diags *d)
{
	Interconnect ic;
	int ok = ic_load(chip->m, &ic, d);
	chip->graph = ic.graph;
	chip->map = ic.map;
	return ok;
}

static int is_width(const Design *m, int w)
{
	for (int i = 0; i < m->nwidths; i++)
		if (m->widths[i] == w)
			return 1;
	return 0;
}

/* The cores' files are those of the manifest's cores, whose ports are of
 * its networks' widths: a PE or memory tile of another design, or a PE port
 * no network can carry, would be misread by every tool downstream. */
static int check_cores(const Chip *chip, Diags *d)
{
	const Design *m = chip->m;
	const PeInfo *pe = chip->pe_info;
	const char *info = design_path(m, m->pe.info), *manifest = design_path(m, "design.yaml");
	int ok = 1;
	if (strcmp(pe->name, m->pe.name) != 0) {
		diag_error(d, info, 0, 0, "the file is of PE '%s', %s names '%s'", pe->name, manifest, m->pe.name);
		ok = 0;
	}
	if (chip->mem_info && strcmp(chip->mem_info->name, m->mem.name) != 0) {
		diag_error(d, design_path(m, m->mem.info), 0, 0, "the file is of memory '%s', %s names '%s'",
			   chip->mem_info->name, manifest, m->mem.name);
		ok = 0;
	}
	for (int io = 0; io < 2; io++)
		for (int i = 0; i < (io ? pe->noutputs : pe->ninputs); i++) {
			const PePort *p = io ? &pe->outputs[i] : &pe->inputs[i];
			if (!is_width(m, p->width)) {
				diag_error(d, info, 0, 0,
					   "%s %s of PE '%s' is %d bits wide: %s has no network of that width",
					   io ? "output" : "input", p->name, pe->name, p->width, manifest);
				ok = 0;
			}
		}
	return ok;
}

/* The PE's info and rules and the memory tile's info, both read whatever
 * the other gives, then checked against the manifest. 0 with errors in d. */
static int load_cores(Chip *chip, Diags *d)
{
	const Design *m = chip->m;
	const char *rules = arena_printf(m->arena, "%s.rules.yaml", m->pe.name);
	chip->pe_info = peinfo_load(design_path(m, m->pe.info), design_path(m, rules), d);
	if (m->mem.name)
		chip->mem_info = meminfo_load(design_path(m, m->mem.info), d);
	return chip->pe_info && (!m->mem.name || chip->mem_info) && check_cores(chip, d);
}

Chip *chip_load(const char *dir, unsigned parts, int *loaded, Diags *d)
{
	Design *m = design_load(dir, loaded, d);
	if (!m)
		return NULL;
	Chip *chip = arena_alloc(m->arena, sizeof *chip);
	chip->m = m;
	if ((parts & CHIP_INTERCONNECT && !load_interconnect(chip, d)) ||
	    (parts & CHIP_CORES && !load_cores(chip, d))) {
		chip_free(chip);
		return NULL;
	}
	return chip;
}

void chip_free(Chip *chip)
{
	if (!chip)
		return;
	rgraph_free(chip->graph);
	configmap_free(chip->map);
	peinfo_free(chip->pe_info);
	meminfo_free(chip->mem_info);
	design_free(chip->m);
}
