// Frequency tables of the census generator, counted once (by a throwaway
// script, not kept) on Becker & Kohavi (1996), UCI Adult, training split
// (adult.data), after dropping the 2,399 rows that hold a "?": 30,162 rows
// remain, 1,427 of them with a non-zero capital-loss (the count Koudas et al.
// 2009 report in Section 6). Counts only: no data rows are copied.

package datasets

// adultRows is the number of rows the tables were counted on.
const adultRows = 30162

// sexValues are the values of sex.
var sexValues = []string{"Male", "Female"}

// raceValues are the values of race.
var raceValues = []string{"White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"}

// maritalValues are the values of marital-status.
var maritalValues = []string{"Married-civ-spouse", "Never-married", "Divorced", "Separated", "Widowed", "Married-spouse-absent", "Married-AF-spouse"}

// relationshipValues are the values of relationship.
var relationshipValues = []string{"Husband", "Not-in-family", "Own-child", "Unmarried", "Wife", "Other-relative"}

// educationValues are the values of education, from least to most schooling.
var educationValues = []string{"Preschool", "1st-4th", "5th-6th", "7th-8th", "9th", "10th", "11th", "12th", "HS-grad", "Some-college", "Assoc-voc", "Assoc-acdm", "Bachelors", "Masters", "Prof-school", "Doctorate"}

// occupationValues are the values of occupation.
var occupationValues = []string{"Prof-specialty", "Craft-repair", "Exec-managerial", "Adm-clerical", "Sales", "Other-service", "Machine-op-inspct", "Transport-moving", "Handlers-cleaners", "Farming-fishing", "Tech-support", "Protective-serv", "Priv-house-serv", "Armed-Forces"}

// workclassValues are the values of workclass.
var workclassValues = []string{"Private", "Self-emp-not-inc", "Local-gov", "State-gov", "Self-emp-inc", "Federal-gov", "Without-pay"}

// countryValues are the values of native-country.
var countryValues = []string{"United-States", "Mexico", "Philippines", "Germany", "Puerto-Rico", "Canada", "El-Salvador", "India", "Cuba", "England", "Jamaica", "South", "China", "Italy", "Dominican-Republic", "Vietnam", "Guatemala", "Japan", "Columbia", "Poland", "Haiti", "Iran", "Taiwan", "Portugal", "Nicaragua", "Peru", "Greece", "Ecuador", "France", "Ireland", "Hong", "Cambodia", "Trinadad&Tobago", "Laos", "Thailand", "Yugoslavia", "Outlying-US(Guam-USVI-etc)", "Hungary", "Honduras", "Scotland", "Holand-Netherlands"}

// salaryValues are the values of salary-class.
var salaryValues = []string{"<=50K", ">50K"}

// ageValues are the ages that occur (17..90).
var ageValues = []int{17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 88, 90}

// hoursValues are the hours-per-week that occur (1..99).
var hoursValues = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 70, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 84, 85, 86, 87, 88, 89, 90, 91, 92, 94, 95, 96, 97, 98, 99}

// capitalLossValues are the non-zero capital-loss values that occur.
var capitalLossValues = []int{155, 213, 323, 419, 625, 653, 810, 880, 974, 1092, 1138, 1258, 1340, 1380, 1408, 1411, 1485, 1504, 1539, 1564, 1573, 1579, 1590, 1594, 1602, 1617, 1628, 1648, 1651, 1668, 1669, 1672, 1719, 1721, 1726, 1735, 1740, 1741, 1755, 1762, 1816, 1825, 1844, 1848, 1876, 1887, 1902, 1944, 1974, 1977, 1980, 2001, 2002, 2042, 2051, 2057, 2080, 2129, 2149, 2174, 2179, 2201, 2205, 2206, 2231, 2238, 2246, 2258, 2267, 2282, 2339, 2352, 2377, 2392, 2415, 2444, 2457, 2467, 2472, 2547, 2559, 2603, 2754, 2824, 3004, 3683, 3770, 3900, 4356}

// sexCounts[sex] counts rows.
var sexCounts = []int{20380, 9782}

// ageCounts[sex][age] counts rows (age indexes ageValues).
var ageCounts = [][]int{
	{178, 230, 299, 340, 344, 373, 485, 471, 502, 476, 519, 535, 519, 560, 588, 556, 602, 598, 603, 584, 609, 568, 539, 517, 552, 522, 527, 508, 493, 494, 475, 363, 390, 425, 411, 328, 319, 296, 262, 244, 252, 246, 246, 206, 191, 135, 131, 116, 91, 72, 72, 58, 57, 46, 33, 25, 33, 25, 25, 18, 13, 11, 12, 11, 7, 6, 5, 4, 2, 0, 2, 25},
	{150, 217, 295, 289, 277, 301, 339, 281, 297, 269, 270, 273, 255, 253, 263, 233, 235, 238, 225, 268, 219, 223, 247, 248, 217, 219, 216, 196, 213, 217, 208, 160, 165, 150, 160, 127, 129, 98, 124, 99, 85, 98, 86, 70, 68, 78, 55, 57, 45, 38, 39, 32, 23, 18, 21, 15, 16, 13, 9, 11, 7, 3, 3, 5, 6, 1, 0, 4, 1, 1, 1, 10},
}

// maritalCounts[ageGroup][sex][marital-status] counts rows.
var maritalCounts = [][][]int{
	{
		{12, 693, 1, 0, 0, 1, 0},
		{8, 638, 6, 5, 0, 3, 2},
	},
	{
		{332, 1621, 27, 21, 0, 12, 0},
		{84, 1299, 49, 35, 2, 16, 2},
	},
	{
		{1117, 1249, 112, 48, 2, 17, 6},
		{208, 896, 166, 58, 6, 30, 0},
	},
	{
		{3841, 1222, 547, 143, 7, 46, 1},
		{482, 883, 743, 190, 47, 52, 7},
	},
	{
		{3642, 410, 607, 95, 20, 65, 2},
		{410, 398, 907, 183, 110, 50, 1},
	},
	{
		{3123, 180, 364, 52, 56, 33, 0},
		{266, 163, 591, 95, 335, 34, 0},
	},
	{
		{518, 39, 27, 6, 56, 7, 0},
		{22, 35, 67, 8, 186, 4, 0},
	},
}

// relationshipCounts[marital-status][sex][relationship] counts rows.
var relationshipCounts = [][][]int{
	{
		{12453, 12, 49, 0, 1, 70},
		{1, 2, 34, 0, 1395, 48},
	},
	{
		{0, 2551, 2237, 281, 0, 345},
		{0, 1897, 1692, 520, 0, 203},
	},
	{
		{0, 1170, 163, 310, 0, 42},
		{0, 1098, 145, 1225, 0, 61},
	},
	{
		{0, 235, 41, 68, 0, 21},
		{0, 148, 49, 345, 0, 32},
	},
	{
		{0, 77, 1, 57, 0, 6},
		{0, 355, 11, 286, 0, 34},
	},
	{
		{0, 115, 14, 33, 0, 19},
		{0, 66, 29, 87, 0, 7},
	},
	{
		{9, 0, 0, 0, 0, 0},
		{0, 0, 1, 0, 10, 1},
	},
}

// educationCounts[ageGroup][sex][education] counts rows.
var educationCounts = [][][]int{
	{
		{1, 3, 7, 13, 24, 84, 181, 57, 190, 146, 1, 0, 0, 0, 0, 0},
		{0, 0, 0, 3, 10, 64, 156, 51, 181, 192, 2, 1, 1, 1, 0, 0},
	},
	{
		{4, 9, 30, 26, 34, 47, 71, 39, 720, 691, 70, 53, 210, 9, 0, 0},
		{3, 2, 5, 8, 11, 20, 28, 13, 390, 640, 56, 58, 242, 10, 0, 1},
	},
	{
		{3, 8, 30, 31, 41, 65, 72, 34, 934, 513, 113, 83, 507, 77, 31, 9},
		{0, 6, 8, 8, 10, 33, 30, 6, 379, 301, 78, 70, 354, 61, 15, 5},
	},
	{
		{6, 26, 42, 72, 91, 113, 164, 48, 2023, 1114, 294, 214, 1114, 298, 122, 66},
		{4, 7, 14, 18, 19, 43, 46, 24, 787, 541, 150, 132, 455, 116, 28, 20},
	},
	{
		{5, 19, 43, 87, 46, 88, 76, 33, 1406, 968, 229, 174, 995, 410, 167, 95},
		{4, 10, 17, 21, 32, 25, 54, 11, 683, 468, 107, 88, 291, 192, 28, 28},
	},
	{
		{10, 38, 53, 148, 87, 145, 90, 39, 1267, 634, 132, 84, 586, 287, 107, 101},
		{1, 11, 21, 54, 25, 50, 47, 15, 566, 301, 46, 42, 159, 111, 14, 21},
	},
	{
		{2, 5, 14, 48, 13, 28, 23, 5, 194, 105, 13, 5, 110, 37, 28, 23},
		{2, 7, 4, 20, 12, 15, 10, 2, 120, 64, 16, 4, 20, 18, 2, 6},
	},
}

// occupationCounts[education][sex][occupation] counts rows.
var occupationCounts = [][][]int{
	{
		{1, 4, 0, 1, 0, 8, 7, 0, 1, 9, 0, 0, 0, 0},
		{0, 0, 0, 1, 0, 6, 4, 0, 1, 0, 0, 0, 2, 0},
	},
	{
		{2, 21, 3, 0, 6, 19, 16, 7, 15, 18, 0, 1, 0, 0},
		{2, 2, 0, 0, 1, 19, 7, 0, 1, 0, 0, 0, 11, 0},
	},
	{
		{1, 38, 1, 3, 6, 41, 30, 27, 37, 34, 0, 1, 0, 0},
		{0, 3, 0, 3, 5, 19, 20, 0, 2, 2, 1, 0, 14, 0},
	},
	{
		{7, 108, 17, 9, 24, 33, 53, 60, 42, 62, 2, 8, 0, 0},
		{1, 3, 1, 2, 5, 58, 39, 0, 4, 7, 3, 1, 8, 0},
	},
	{
		{2, 88, 7, 6, 15, 55, 51, 35, 45, 27, 1, 3, 1, 0},
		{1, 5, 5, 8, 17, 43, 24, 0, 4, 1, 1, 1, 9, 0},
	},
	{
		{5, 154, 16, 16, 35, 86, 71, 78, 63, 39, 2, 3, 2, 0},
		{4, 9, 8, 22, 45, 107, 30, 5, 8, 4, 1, 3, 4, 0},
	},
	{
		{10, 164, 21, 18, 53, 105, 65, 89, 107, 35, 4, 6, 0, 0},
		{10, 9, 12, 49, 87, 133, 34, 3, 15, 2, 2, 1, 14, 0},
	},
	{
		{6, 54, 11, 12, 17, 40, 22, 35, 34, 15, 2, 5, 1, 1},
		{3, 1, 2, 24, 27, 43, 12, 2, 3, 1, 1, 0, 3, 0},
	},
	{
		{131, 1803, 534, 390, 636, 542, 742, 765, 514, 380, 99, 193, 1, 4},
		{98, 100, 265, 960, 416, 711, 269, 51, 89, 21, 58, 22, 46, 0},
	},
	{
		{254, 803, 579, 372, 611, 340, 236, 259, 235, 153, 156, 171, 0, 2},
		{169, 49, 291, 892, 385, 424, 71, 21, 27, 21, 115, 27, 15, 0},
	},
	{
		{76, 236, 97, 41, 75, 49, 52, 38, 23, 50, 72, 42, 1, 0},
		{94, 12, 53, 124, 29, 61, 10, 2, 5, 2, 54, 6, 3, 0},
	},
	{
		{64, 108, 87, 60, 99, 31, 26, 23, 21, 13, 48, 33, 0, 0},
		{72, 6, 56, 131, 43, 47, 7, 4, 1, 1, 24, 1, 2, 0},
	},
	{
		{890, 206, 1008, 234, 631, 96, 46, 53, 44, 74, 151, 86, 2, 1},
		{571, 14, 325, 264, 162, 74, 13, 2, 4, 3, 72, 14, 4, 0},
	},
	{
		{488, 19, 386, 38, 108, 6, 6, 9, 5, 10, 27, 15, 0, 1},
		{331, 2, 105, 29, 21, 12, 2, 0, 0, 0, 7, 0, 0, 0},
	},
	{
		{373, 7, 40, 6, 13, 3, 0, 3, 0, 4, 5, 1, 0, 0},
		{70, 0, 8, 2, 4, 1, 0, 0, 0, 0, 2, 0, 0, 0},
	},
	{
		{237, 1, 42, 3, 7, 0, 0, 1, 0, 1, 2, 0, 0, 0},
		{65, 1, 12, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0},
	},
}

// workclassCounts[occupation][workclass] counts rows.
var workclassCounts = [][]int{
	{2254, 365, 692, 403, 157, 167, 0},
	{3146, 523, 143, 55, 99, 63, 1},
	{2647, 383, 212, 186, 385, 179, 0},
	{2793, 49, 281, 251, 28, 316, 3},
	{2895, 376, 7, 11, 281, 14, 0},
	{2665, 173, 189, 123, 27, 34, 1},
	{1882, 35, 11, 13, 10, 14, 1},
	{1247, 118, 115, 41, 26, 24, 1},
	{1255, 15, 46, 9, 2, 22, 1},
	{450, 430, 29, 15, 51, 8, 6},
	{723, 26, 38, 56, 3, 66, 0},
	{186, 6, 304, 116, 5, 27, 0},
	{143, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 0, 9, 0},
}

// raceCounts[race] counts rows.
var raceCounts = []int{25933, 2817, 895, 286, 231}

// countryCounts[race][native-country] counts rows.
var countryCounts = [][]int{
	{24218, 559, 8, 118, 78, 105, 95, 8, 87, 78, 5, 1, 2, 68, 36, 2, 59, 18, 49, 55, 0, 34, 2, 33, 27, 29, 28, 18, 26, 23, 2, 0, 0, 0, 2, 16, 8, 13, 11, 11, 1},
	{2629, 4, 1, 6, 9, 0, 1, 2, 3, 7, 74, 0, 0, 0, 12, 0, 0, 3, 0, 0, 41, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 15, 0, 0, 0, 6, 0, 1, 0, 0},
	{273, 1, 178, 2, 1, 1, 0, 85, 0, 1, 0, 68, 66, 0, 1, 62, 0, 37, 0, 1, 1, 6, 40, 1, 0, 0, 1, 0, 0, 1, 16, 18, 2, 17, 15, 0, 0, 0, 0, 0, 0},
	{271, 8, 1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	{113, 38, 0, 1, 20, 1, 4, 5, 2, 0, 1, 0, 0, 0, 18, 0, 4, 1, 6, 0, 0, 2, 0, 0, 4, 1, 0, 9, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0},
}

// hoursBandCounts[ageGroup][sex][band] counts rows (bands: see hoursBandUpper).
var hoursBandCounts = [][][]int{
	{
		{184, 200, 123, 143, 18, 26, 13},
		{182, 239, 109, 118, 5, 6, 3},
	},
	{
		{96, 243, 303, 983, 135, 171, 82},
		{176, 274, 301, 596, 62, 50, 28},
	},
	{
		{30, 97, 210, 1328, 318, 345, 223},
		{53, 94, 199, 759, 102, 105, 52},
	},
	{
		{50, 88, 318, 2793, 767, 1070, 721},
		{82, 169, 430, 1233, 192, 183, 115},
	},
	{
		{46, 77, 295, 2338, 639, 836, 610},
		{60, 133, 356, 1042, 210, 175, 83},
	},
	{
		{79, 130, 251, 1912, 418, 599, 419},
		{85, 109, 296, 732, 100, 97, 65},
	},
	{
		{121, 124, 85, 196, 30, 60, 37},
		{90, 83, 44, 78, 8, 13, 6},
	},
}

// hoursCounts[hours] counts rows (hours indexes hoursValues).
var hoursCounts = []int{7, 15, 24, 27, 38, 40, 19, 102, 17, 222, 9, 137, 18, 29, 346, 180, 27, 63, 14, 1054, 23, 39, 20, 217, 574, 28, 28, 72, 5, 989, 5, 238, 37, 27, 1184, 202, 145, 456, 37, 14251, 34, 213, 146, 209, 1753, 80, 49, 494, 26, 2718, 13, 135, 22, 38, 672, 90, 17, 27, 4, 1405, 2, 18, 9, 14, 241, 16, 4, 12, 276, 62, 2, 1, 63, 3, 6, 8, 120, 3, 1, 40, 13, 2, 1, 2, 2, 28, 3, 1, 1, 2, 5, 2, 11, 78}

// salaryCounts[education][married][salary-class] counts rows; married is 1 for Married-civ-spouse and Married-AF-spouse.
var salaryCounts = [][][]int{
	{
		{29, 0},
		{16, 0},
	},
	{
		{78, 0},
		{67, 6},
	},
	{
		{145, 1},
		{131, 11},
	},
	{
		{234, 5},
		{288, 30},
	},
	{
		{236, 6},
		{194, 19},
	},
	{
		{486, 7},
		{275, 52},
	},
	{
		{705, 16},
		{284, 43},
	},
	{
		{260, 4},
		{88, 25},
	},
	{
		{5102, 155},
		{3121, 1462},
	},
	{
		{3841, 155},
		{1501, 1181},
	},
	{
		{602, 44},
		{361, 300},
	},
	{
		{529, 37},
		{223, 219},
	},
	{
		{2091, 350},
		{827, 1776},
	},
	{
		{505, 180},
		{204, 738},
	},
	{
		{81, 75},
		{55, 331},
	},
	{
		{53, 64},
		{42, 216},
	},
}

// capitalLossZero[salary-class] counts rows with capital-loss 0.
var capitalLossZero = []int{21964, 6771}

// capitalLossCounts[salary-class][value] counts rows with a non-zero capital-loss (value indexes capitalLossValues).
var capitalLossCounts = [][]int{
	{1, 4, 3, 1, 12, 1, 2, 6, 2, 7, 2, 3, 7, 7, 19, 1, 17, 16, 1, 0, 5, 20, 37, 8, 34, 9, 13, 2, 9, 3, 23, 34, 20, 16, 4, 2, 41, 23, 0, 13, 2, 0, 1, 0, 39, 0, 13, 1, 18, 0, 23, 21, 20, 9, 21, 6, 1, 2, 2, 0, 14, 0, 8, 5, 0, 2, 0, 12, 3, 0, 14, 2, 9, 0, 0, 0, 1, 1, 0, 0, 0, 4, 2, 0, 0, 1, 2, 2, 1},
	{0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 28, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 50, 0, 155, 181, 0, 0, 162, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 1, 0, 0, 3, 0, 6, 13, 0, 1, 0, 0, 8, 8, 45, 12, 0, 0, 1, 4, 12, 0, 0, 8, 1, 1, 0, 0, 0},
}

// adultMarginals holds the share counts of every categorical column.
var adultMarginals = map[string]map[string]int{
	"workclass": {
		"Private":          22286,
		"Self-emp-not-inc": 2499,
		"Local-gov":        2067,
		"State-gov":        1279,
		"Self-emp-inc":     1074,
		"Federal-gov":      943,
		"Without-pay":      14,
	},
	"education": {
		"HS-grad":      9840,
		"Some-college": 6678,
		"Bachelors":    5044,
		"Masters":      1627,
		"Assoc-voc":    1307,
		"11th":         1048,
		"Assoc-acdm":   1008,
		"10th":         820,
		"7th-8th":      557,
		"Prof-school":  542,
		"9th":          455,
		"12th":         377,
		"Doctorate":    375,
		"5th-6th":      288,
		"1st-4th":      151,
		"Preschool":    45,
	},
	"marital-status": {
		"Married-civ-spouse":    14065,
		"Never-married":         9726,
		"Divorced":              4214,
		"Separated":             939,
		"Widowed":               827,
		"Married-spouse-absent": 370,
		"Married-AF-spouse":     21,
	},
	"occupation": {
		"Prof-specialty":    4038,
		"Craft-repair":      4030,
		"Exec-managerial":   3992,
		"Adm-clerical":      3721,
		"Sales":             3584,
		"Other-service":     3212,
		"Machine-op-inspct": 1966,
		"Transport-moving":  1572,
		"Handlers-cleaners": 1350,
		"Farming-fishing":   989,
		"Tech-support":      912,
		"Protective-serv":   644,
		"Priv-house-serv":   143,
		"Armed-Forces":      9,
	},
	"relationship": {
		"Husband":        12463,
		"Not-in-family":  7726,
		"Own-child":      4466,
		"Unmarried":      3212,
		"Wife":           1406,
		"Other-relative": 889,
	},
	"race": {
		"White":              25933,
		"Black":              2817,
		"Asian-Pac-Islander": 895,
		"Amer-Indian-Eskimo": 286,
		"Other":              231,
	},
	"sex": {
		"Male":   20380,
		"Female": 9782,
	},
	"native-country": {
		"United-States":              27504,
		"Mexico":                     610,
		"Philippines":                188,
		"Germany":                    128,
		"Puerto-Rico":                109,
		"Canada":                     107,
		"El-Salvador":                100,
		"India":                      100,
		"Cuba":                       92,
		"England":                    86,
		"Jamaica":                    80,
		"South":                      71,
		"China":                      68,
		"Italy":                      68,
		"Dominican-Republic":         67,
		"Vietnam":                    64,
		"Guatemala":                  63,
		"Japan":                      59,
		"Columbia":                   56,
		"Poland":                     56,
		"Haiti":                      42,
		"Iran":                       42,
		"Taiwan":                     42,
		"Portugal":                   34,
		"Nicaragua":                  33,
		"Peru":                       30,
		"Greece":                     29,
		"Ecuador":                    27,
		"France":                     27,
		"Ireland":                    24,
		"Hong":                       19,
		"Cambodia":                   18,
		"Trinadad&Tobago":            18,
		"Laos":                       17,
		"Thailand":                   17,
		"Yugoslavia":                 16,
		"Outlying-US(Guam-USVI-etc)": 14,
		"Hungary":                    13,
		"Honduras":                   12,
		"Scotland":                   11,
		"Holand-Netherlands":         1,
	},
	"salary-class": {
		"<=50K": 22654,
		">50K":  7508,
	},
}
