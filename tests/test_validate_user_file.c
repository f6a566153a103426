/*
 * test_validate_user_file.c -- a user's measurement file as dlsim
 * validate --file reads it (calibrate/cal_validate_user.c): any field
 * predict would refuse stops the run naming the file, line and column,
 * as a byte no CSV text holds does; the file names its set; the command refuses and reports as predict
 * does; rows may name a --hw file; the README's example runs.  How a
 * good row becomes a prediction is test_validate_user.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "validate_util.h"
#include "calibrate/cal.h"
#include "cli_util.h"
#include "dlsim.h"

/* Every field predict would refuse stops the run, naming the place. */
START_TEST(validate_user_refuses_bad_fields)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "model,hw,metric,measured,precison\n"
		  "resnet50,v100,step_s,1,fp16\n",
		  "t.csv:1: unknown column 'precison'" },
		{ "model,hw,metric\nresnet50,v100,step_s\n",
		  "t.csv:1: no 'measured' column" },
		{ "model,hw,metric,measured,hw\n",
		  "t.csv:1: column 'hw' appears twice" },
		{ "model,hw,metric,measured,precision\n"
		  "resnet50,v100,step_s,1,fp16\n"
		  "resnet50,v100,step_s,1,fp17\n",
		  "t.csv:3: column 'precision': unknown precision 'fp17'" },
		{ "model,hw,metric,measured\nresnet5,v100,step_s,1\n",
		  "t.csv:2: column 'model': unknown model 'resnet5'" },
		{ "model,hw,metric,measured\nresnet50,v99,step_s,1\n",
		  "t.csv:2: column 'hw': unknown device or node 'v99'" },
		{ "model,hw,metric,measured\nresnet50,v100,steps,1\n",
		  "t.csv:2: column 'metric': 'steps' is not step_s" },
		{ "model,hw,metric,measured\nresnet50,v100,step_s,0\n",
		  "t.csv:2: column 'measured': '0' is not above 0" },
		{ "model,hw,metric,measured\nresnet50,v100,step_s,1e-300\n",
		  "t.csv:2: column 'measured': '1e-300' is outside 1e-9 .. "
		  "1e15" },
		{ "model,hw,metric,measured\nresnet50,v100,step_s,fast\n",
		  "t.csv:2: column 'measured' must be a finite number (got "
		  "'fast')" },
		/* strtod would read these as 1/16 and 16 */
		{ "model,hw,metric,measured\nresnet50,v100,step_s,0x1p-4\n",
		  "t.csv:2: column 'measured' must be a decimal number, not "
		  "hexadecimal (got '0x1p-4')" },
		{ "model,hw,metric,measured,dispatch-us\n"
		  "resnet50,v100,step_s,1,0x10\n",
		  "t.csv:2: column 'dispatch-us' must be a decimal number, not "
		  "hexadecimal (got '0x10')" },
		{ "model,hw,metric,measured,bucket-mb\n"
		  "vgg16,v100x8,step_s,1,0X19\n",
		  "t.csv:2: column 'bucket-mb' must be a decimal number, not "
		  "hexadecimal (got '0X19')" },
		{ "model,hw,metric,measured\nresnet50,v100,step_s,inf\n",
		  "t.csv:2: column 'measured' must be a finite number (got "
		  "'inf')" },
		/* CSV trims an unquoted field, but --batch " 5" is refused:
		 * so is a number column's " 64" */
		{ "model,hw,metric,measured,batch\nresnet50,v100,step_s,1, 64\n",
		  "t.csv:2: column 'batch': blanks before or after '64' (a "
		  "number is written without them, as predict's --batch "
		  "takes it)" },
		{ "model,hw,metric,measured,batch\nresnet50,v100,step_s,1,64 \n",
		  "t.csv:2: column 'batch': blanks before or after '64'" },
		{ "model,hw,metric,measured,global-batch\n"
		  "resnet50,v100x8,step_s,1,\t512\n",
		  "t.csv:2: column 'global-batch': blanks before or after '512'" },
		{ "model,hw,metric,measured,tp\ngpt3-175b,a100x8,step_s,1, 8\n",
		  "t.csv:2: column 'tp': blanks before or after '8' (a number is "
		  "written without them, as predict's --tp takes it)" },
		{ "model,hw,metric,measured,zero\ngpt3-175b,a100x8,step_s,1,1 \n",
		  "t.csv:2: column 'zero': blanks before or after '1'" },
		{ "model,hw,metric,measured\nresnet50,v100,step_s, 0.5\n",
		  "t.csv:2: column 'measured': blanks before or after '0.5' (a "
		  "number is written without them)" },
		{ "model,hw,metric,measured,dispatch-us\n"
		  "resnet50,v100,step_s,1,5 \n",
		  "t.csv:2: column 'dispatch-us': blanks before or after '5'" },
		/* quoted, the blank is the field's: the parser refuses it */
		{ "model,hw,metric,measured,batch\n"
		  "resnet50,v100,step_s,1,\" 64\"\n",
		  "t.csv:2: column 'batch' must be a positive integer (got "
		  "' 64')" },
		{ "model,hw,metric,measured,batch\nresnet50,v100,step_s,1,-2\n",
		  "t.csv:2: column 'batch' must be a positive integer (got "
		  "'-2')" },
		{ "model,hw,metric,measured,batch,global-batch\n"
		  "resnet50,v100x8,step_s,1,2,16\n",
		  "t.csv:2: columns 'batch' and 'global-batch' exclude" },
		{ "model,hw,metric,measured,fuse-elementwise\n"
		  "resnet50,v100,step_s,1,1\n",
		  "t.csv:2: column 'fuse-elementwise': '1' is not yes or no" },
		{ "model,hw,metric,measured,optimizer-foreach\n"
		  "resnet50,v100,step_s,1,true\n",
		  "t.csv:2: column 'optimizer-foreach': 'true' is not yes or "
		  "no" },
		{ "model,hw,metric,measured,autocast\n"
		  "resnet50,v100,step_s,1,on\n",
		  "t.csv:2: column 'autocast': 'on' is not yes or no" },
		{ "model,hw,metric,measured,precision,autocast\n"
		  "resnet50,v100,step_s,1,fp32,yes\n",
		  "t.csv:2: autocast runs fp16 or bf16, not fp32" },
		{ "model,hw,metric,measured,dispatch-us\n"
		  "resnet50,v100,step_s,1,-4\n",
		  "t.csv:2: column 'dispatch-us': -4 is not at least 0" },
		{ "model,hw,metric,measured,tp\ngpt3-175b,a100x8,step_s,1,3\n",
		  "t.csv:2: tp 3 x pp 1 does not divide the 8 devices" },
		{ "model,hw,metric,measured,tp\nresnet50,v100x8,step_s,1,2\n",
		  "t.csv:2: model 'resnet50' is not a transformer" },
		{ "model,hw,metric,measured,tp,fuse-elementwise\n"
		  "gpt3-175b,a100x8,step_s,1,8,yes\n",
		  "t.csv:2: column 'fuse-elementwise' is not available with a "
		  "parallel strategy, which column 'tp' asks for" },
		{ "model,hw,metric,measured,tp,fuse-conv-bn\n"
		  "gpt3-175b,a100x8,step_s,1,8,yes\n",
		  "t.csv:2: column 'fuse-conv-bn' is not available with a "
		  "parallel strategy, which column 'tp' asks for" },
		{ "model,hw,metric,measured,fuse-conv-bn\n"
		  "resnet50,v100,step_s,1,on\n",
		  "t.csv:2: column 'fuse-conv-bn': 'on' is not yes or no" },
		{ "model,hw,metric,measured\nresnet50,v100,step_s,1,x\n",
		  "t.csv:2: the row has 5 fields, the header 4" },
		{ "model,hw,metric,measured\nresnet50,v100,step_s\n",
		  "t.csv:2: the row has 3 fields, the header 4" },
		{ "model,hw,metric,measured,batch,tp\n"
		  "gpt3-175b,a100x8,step_s,1,1000000000000000,2\n",
		  "t.csv:2: a batch of 1000000000000000 x dp 4 is above" },
		{ "model,hw,metric,measured\nresnet50,local,step_s,1\n",
		  "t.csv:2: column 'hw': no calibration for 'local'" },
		{ "model,hw,metric,measured,tp,allreduce\n"
		  "gpt3-175b,a100x8,step_s,1,8,ring\n",
		  "t.csv:2: column 'allreduce' is not available with a "
		  "parallel strategy, which column 'tp' asks for" },
		{ "model,hw,metric,measured,zero\ngpt3-175b,a100x8,step_s,1,4\n",
		  "t.csv:2: column 'zero': '4' is not 0, 1, 2 or 3" },
		{ "model,hw,metric,measured,schedule\n"
		  "gpt3-175b,a100x8,step_s,1,zigzag\n",
		  "t.csv:2: column 'schedule': unknown schedule 'zigzag'" },
		{ "model,hw,metric,measured,topk-ratio\nvgg16,v100x8,step_s,1,0.1\n",
		  "t.csv:2: column 'topk-ratio' needs compression topk" },
		{ "model,hw,metric,measured,compression,topk-ratio\n"
		  "vgg16,v100x8,step_s,1,topk,2\n",
		  "t.csv:2: column 'topk-ratio': 2 is not above 0 and at most 1" },
		{ "model,hw,metric,measured,bucket-mb\nvgg16,v100x8,step_s,1,0\n",
		  "t.csv:2: column 'bucket-mb': 0 is not above 0" },
		{ "model,hw,metric,measured,allreduce\nvgg16,v100x8,step_s,1,star\n",
		  "t.csv:2: column 'allreduce': unknown collective algorithm "
		  "'star'" },
		{ "model,hw,metric,measured,compression\nvgg16,v100x8,step_s,1,zip\n",
		  "t.csv:2: column 'compression': unknown compression 'zip'" },
		{ "model,hw,metric,measured,update-on\nvgg16,v100x8,step_s,1,cpu\n",
		  "t.csv:2: column 'update-on': 'cpu' is not device or host" },
		{ "model,hw,metric,measured,update-on\nvgg16,h100x8,step_s,1,host\n",
		  "t.csv:2: --update-on host: node 'dgx-h100' states no host CPU" },
		{ "model,hw,metric,measured,update-on,tp\n"
		  "gpt3-175b,a100x8,step_s,1,host,2\n",
		  "t.csv:2: --update-on host with data parallelism is "
		  "ZeRO-Offload" },
		{ "model,hw,metric,measured,update-on,bucket-mb\n"
		  "vgg16,v100x8,step_s,1,host,50\n",
		  "t.csv:2: column 'bucket-mb': the update on the host fills "
		  "no gradient buckets" },
		{ "model,hw,metric,measured,update-on,no-overlap\n"
		  "vgg16,v100x8,step_s,1,host,yes\n",
		  "t.csv:2: column 'no-overlap': the update on the host "
		  "overlaps nothing already" },
		{ "model,hw,metric,measured,update-on,allreduce\n"
		  "vgg16,v100x8,step_s,1,host,ring\n",
		  "t.csv:2: column 'allreduce': the update on the host sends" },
		{ "model,hw,metric,measured,recompute\n"
		  "gpt3-175b,a100x8,step_s,1,most\n",
		  "t.csv:2: column 'recompute': unknown recompute 'most'" },
		{ "model,hw,metric,measured,precision\n"
		  "resnet50,k80,step_s,1,fp8\n",
		  "t.csv:2: device 'k80' has no fp8 peak" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct dlsim_err err = { 0, "" };
		struct cal_val_set out;
		int rc = val_run_user(bad[i].text, &out, &err);

		free(out.row);
		ck_assert_msg(rc == DLSIM_EPARSE, "case %zu: rc %d (%s)", i, rc,
			      err.msg);
		ck_assert_msg(strstr(err.msg, bad[i].says) != NULL,
			      "case %zu: '%s' lacks '%s'", i, err.msg,
			      bad[i].says);
	}
}
END_TEST

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert(f != NULL);
	ck_assert(fputs(text, f) >= 0);
	ck_assert(fclose(f) == 0);
}

/* The file names its set; a shipped set's name, a missing file and a
 * file with no measurement are refused. */
START_TEST(validate_user_file_names_its_set)
{
	static const char good[] = "model,hw,metric,measured\n"
				   "resnet50,v100,step_s,0.2\n";
	char dir[] = "/tmp/dlsim-vuser-XXXXXX", path[128], args[512];
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct cal_val_set out;
	struct run r;

	ck_assert(mkdtemp(dir) != NULL);
	ck_assert_int_eq(hw_catalog_load(NULL, &cat, &err), DLSIM_OK);
	snprintf(path, sizeof(path), "%s/my-runs.csv", dir);
	write_file(path, good);
	ck_assert_int_eq(cal_validate_file(cat, NULL, path, &out, &err),
			 DLSIM_OK);
	ck_assert_str_eq(out.name, "my-runs");
	ck_assert(strstr(out.title, path) != NULL);
	ck_assert_int_eq(out.rows, 1);
	free(out.row);

	snprintf(args, sizeof(args), "validate --file %s --format json "
		 "--uncalibrated", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out) && strstr(r.out, "\"my-runs\": {") &&
		  !strstr(r.out, "\"vtrain\""));
	snprintf(args, sizeof(args), "validate --set dle --file %s "
		 "--uncalibrated", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "\ndle ") && strstr(r.out, "\nmy-runs "));
	snprintf(args, sizeof(args), "validate --file %s,%s", path, path);
	run(&r, args);
	assert_one_error(&r, 2, "two sets named 'my-runs'");

	snprintf(path, sizeof(path), "%s/dle.csv", dir);
	write_file(path, good);
	ck_assert_int_eq(cal_validate_file(cat, NULL, path, &out, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "'dle' is a shipped set's name") != NULL);
	ck_assert_int_eq(unlink(path), 0);

	snprintf(path, sizeof(path), "%s/gone.csv", dir);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(cal_validate_file(cat, NULL, path, &out, &err),
			 DLSIM_EIO);
	ck_assert(strstr(err.msg, "gone.csv") != NULL);

	snprintf(path, sizeof(path), "%s/empty.csv", dir);
	write_file(path, "model,hw,metric,measured\n");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(cal_validate_file(cat, NULL, path, &out, &err),
			 DLSIM_EPARSE);
	ck_assert(strstr(err.msg, "no measurement below the header") != NULL);
	free(out.row);
	snprintf(args, sizeof(args), "validate --file %s", path);
	run(&r, args);
	assert_one_error(&r, 1, "empty.csv: no measurement below the header");
	ck_assert_int_eq(unlink(path), 0);

	snprintf(path, sizeof(path), "%s/my-runs.csv", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	hw_catalog_free(cat);
}
END_TEST

/* The command: a number column with blanks around it is refused as
 * predict refuses the flag with them, one line naming the file, line
 * and column, exit 1 (a damaged file, where the flag's is exit 2). */
START_TEST(validate_user_numbers_take_no_blanks)
{
	char dir[] = "/tmp/dlsim-vblank-XXXXXX", path[128], args[256],
	     want[256];
	struct run r;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/mine.csv", dir);
	write_file(path, "model,hw,metric,measured,batch\n"
		   "resnet50,v100x8,step_s,0.5,64\n"
		   "resnet50,v100x8,step_s,0.5, 64\n");
	snprintf(args, sizeof(args), "validate --file %s --uncalibrated",
		 path);
	run(&r, args);
	snprintf(want, sizeof(want), "%s:3: column 'batch': blanks before or "
		 "after '64'", path);
	assert_one_error(&r, 1, want);
	run(&r, "predict resnet50 --hw v100x8 --batch ' 64' --uncalibrated");
	assert_one_error(&r, 2, "--batch must be a positive integer (got "
			 "' 64')");
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Rows may name the same --hw file, whose node joins the catalog for
 * its row alone: the second row does not clash with the first's, and
 * both predict alike; the catalog is as it was after. */
START_TEST(validate_user_rows_share_a_hw_file)
{
	static const char hw[] =
		"nodes:\n"
		"  - name: mybox\n    device: v100\n    devices_per_node: 8\n"
		"    intra_link: nvlink2\n    intra_links_per_device: 6\n"
		"    intra_topology: hybrid-cube-mesh\n    nic_link: ib-edr\n"
		"    nics_per_node: 4\n    network: fat-tree\n"
		"    source: \"made up for tests: a DGX-1 by another name\"\n"
		"system:\n  node: mybox\n  count: 2\n";
	char dir[] = "/tmp/dlsim-vuser-XXXXXX", path[128], yaml[128];
	char csv[512];
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct cal_val_set out;

	ck_assert(mkdtemp(dir) != NULL);
	ck_assert_int_eq(hw_catalog_load(NULL, &cat, &err), DLSIM_OK);
	snprintf(yaml, sizeof(yaml), "%s/mybox.yaml", dir);
	write_file(yaml, hw);
	snprintf(path, sizeof(path), "%s/two.csv", dir);
	snprintf(csv, sizeof(csv), "model,hw,batch,metric,measured\n"
		 "resnet50,%s,32,samples_per_s,10000\n"
		 "resnet50,%s,32,samples_per_s,11000\n", yaml, yaml);
	write_file(path, csv);
	ck_assert_msg(cal_validate_file(cat, NULL, path, &out, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(out.rows, 2);
	ck_assert(out.row[0].predicted == out.row[1].predicted);
	ck_assert_ptr_null(hw_node_find(cat, "mybox"));
	free(out.row);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(unlink(yaml), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	hw_catalog_free(cat);
}
END_TEST

/* The example file the README shows validates. */
START_TEST(validate_user_example_runs)
{
	struct run r;

	run(&r, "validate --file configs/measurements/example.csv "
	    "--rows --format csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "example,resnet50 on p100 batch 64 fp32 "
			 "(samples/s),219,") != NULL);
}
END_TEST

/*
 * The rows are read as C strings, so a NUL ended its line there: a row
 * that began with one read as a blank line and was skipped unseen, and
 * the run went on with the other row, exit 0.  Refused at its line (3),
 * as any damage to the file is, exit 1.
 */
START_TEST(validate_user_refuses_a_nul_byte)
{
	static const char text[] = "model,hw,metric,measured\n"
				   "resnet50,v100,step_s,0.2\n"
				   "\0resnet50,p100,step_s,0.3\n";
	char dir[] = "/tmp/dlsim-vnul-XXXXXX", path[128], args[256],
	     want[160];
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct cal_val_set out;
	struct run r;
	FILE *f;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/nul.csv", dir);
	f = fopen(path, "wb");
	ck_assert(f != NULL);
	ck_assert_uint_eq(fwrite(text, 1, sizeof(text) - 1, f),
			  sizeof(text) - 1);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(want, sizeof(want), "%s:3: a NUL byte", path);

	ck_assert_int_eq(hw_catalog_load(NULL, &cat, &err), DLSIM_OK);
	ck_assert_int_eq(cal_validate_file(cat, NULL, path, &out, &err),
			 DLSIM_EPARSE);
	ck_assert_msg(strstr(err.msg, want) != NULL, "%s", err.msg);
	hw_catalog_free(cat);

	snprintf(args, sizeof(args), "validate --file %s --uncalibrated",
		 path);
	run(&r, args);
	assert_one_error(&r, 1, want);

	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *suite_validate_user_file(void)
{
	Suite *s = suite_create("validate_user_file");
	TCase *c = tcase_create("file");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, validate_user_refuses_bad_fields);
	tcase_add_test(c, validate_user_refuses_a_nul_byte);
	tcase_add_test(c, validate_user_rows_share_a_hw_file);
	tcase_add_test(c, validate_user_file_names_its_set);
	tcase_add_test(c, validate_user_numbers_take_no_blanks);
	tcase_add_test(c, validate_user_example_runs);
	suite_add_tcase(s, c);
	return s;
}
