"""The rest of the world's sovereign states: every member of the United Nations that
:data:`words.facts.COUNTRIES` leaves out, and Vatican City, Kosovo, Taiwan and Palestine, with
the same facts (capital, continent, language, currency, the names people say). The demo model
learned only the 30 countries of :mod:`words.facts`; these are for the facts tool
(:mod:`voice.tools.facts`) to answer questions about the countries it never learned.

Kept, as there, to facts that are stable and uncontroversial, written the way replies say them
and in plain ASCII ("Bogota", "the Icelandic krona"). Where a capital is disputed or split
between cities, the one most commonly given is used and a comment names the others. The
language is the main one or ones (official or most spoken), not a full list; the currency is
the one in everyday use, with its article, as said after "is".
"""

from __future__ import annotations

from words.facts import AF, AS, COUNTRIES, EU, NA, OC, SA, Country, _c

WORLD: tuple[Country, ...] = (
    # -- Europe ----------------------------------------------------------------------------------
    _c("Albania", "Tirana", EU, "Albanian", "the lek"),
    _c("Andorra", "Andorra la Vella", EU, "Catalan", "the euro"),
    _c("Austria", "Vienna", EU, "German", "the euro"),
    _c("Belarus", "Minsk", EU, "Belarusian and Russian", "the Belarusian ruble"),
    _c("Belgium", "Brussels", EU, "Dutch, French and German", "the euro"),
    _c("Bosnia and Herzegovina", "Sarajevo", EU, "Bosnian, Croatian and Serbian",
       "the convertible mark", "Bosnia"),
    _c("Bulgaria", "Sofia", EU, "Bulgarian", "the euro"),  # the euro since 1 January 2026
    _c("Croatia", "Zagreb", EU, "Croatian", "the euro"),  # the euro since 2023
    # Cyprus lies in western Asia, but is an EU member and is usually counted as European.
    _c("Cyprus", "Nicosia", EU, "Greek and Turkish", "the euro"),
    _c("the Czech Republic", "Prague", EU, "Czech", "the Czech koruna", "Czechia"),
    _c("Denmark", "Copenhagen", EU, "Danish", "the Danish krone"),
    _c("Estonia", "Tallinn", EU, "Estonian", "the euro"),
    _c("Finland", "Helsinki", EU, "Finnish and Swedish", "the euro"),
    _c("Hungary", "Budapest", EU, "Hungarian", "the forint"),
    _c("Iceland", "Reykjavik", EU, "Icelandic", "the Icelandic krona"),
    _c("Kosovo", "Pristina", EU, "Albanian and Serbian", "the euro"),
    _c("Latvia", "Riga", EU, "Latvian", "the euro"),
    _c("Liechtenstein", "Vaduz", EU, "German", "the Swiss franc"),
    _c("Lithuania", "Vilnius", EU, "Lithuanian", "the euro"),
    _c("Luxembourg", "Luxembourg City", EU, "Luxembourgish, French and German", "the euro"),
    _c("Malta", "Valletta", EU, "Maltese and English", "the euro"),
    _c("Moldova", "Chisinau", EU, "Romanian", "the Moldovan leu"),
    _c("Monaco", "Monaco", EU, "French", "the euro"),  # a city-state
    _c("Montenegro", "Podgorica", EU, "Montenegrin", "the euro"),
    _c("North Macedonia", "Skopje", EU, "Macedonian and Albanian", "the Macedonian denar",
       "Macedonia"),
    _c("Romania", "Bucharest", EU, "Romanian", "the Romanian leu"),
    _c("San Marino", "San Marino", EU, "Italian", "the euro"),  # the City of San Marino
    _c("Serbia", "Belgrade", EU, "Serbian", "the Serbian dinar"),
    _c("Slovakia", "Bratislava", EU, "Slovak", "the euro"),
    _c("Slovenia", "Ljubljana", EU, "Slovene", "the euro"),
    _c("Ukraine", "Kyiv", EU, "Ukrainian", "the hryvnia"),
    _c("Vatican City", "Vatican City", EU, "Italian and Latin", "the euro",
       "the Vatican", "the Holy See"),
    # -- Asia (the Middle East included) ---------------------------------------------------------
    _c("Afghanistan", "Kabul", AS, "Pashto and Dari", "the afghani"),
    # Armenia, Azerbaijan and Georgia straddle the Caucasus; they are given as Asia, where most
    # of their land lies. Kazakhstan, with land west of the Ural River, is given as both.
    _c("Armenia", "Yerevan", AS, "Armenian", "the dram"),
    _c("Azerbaijan", "Baku", AS, "Azerbaijani", "the Azerbaijani manat"),
    _c("Bahrain", "Manama", AS, "Arabic", "the Bahraini dinar"),
    _c("Bangladesh", "Dhaka", AS, "Bengali", "the taka"),
    _c("Bhutan", "Thimphu", AS, "Dzongkha", "the ngultrum"),
    _c("Brunei", "Bandar Seri Begawan", AS, "Malay", "the Brunei dollar"),
    _c("Cambodia", "Phnom Penh", AS, "Khmer", "the riel"),
    _c("Georgia", "Tbilisi", AS, "Georgian", "the lari"),
    # Jakarta until the move to Nusantara, in Borneo, is completed.
    _c("Indonesia", "Jakarta", AS, "Indonesian", "the rupiah"),
    _c("Iran", "Tehran", AS, "Persian", "the Iranian rial"),
    _c("Iraq", "Baghdad", AS, "Arabic and Kurdish", "the Iraqi dinar"),
    # Jerusalem is where Israel's government sits; most embassies are in Tel Aviv and its status
    # is disputed. Arabic has a special status beside Hebrew.
    _c("Israel", "Jerusalem", AS, "Hebrew", "the shekel"),
    _c("Jordan", "Amman", AS, "Arabic", "the Jordanian dinar"),
    _c("Kazakhstan", "Astana", "both Europe and Asia", "Kazakh and Russian", "the tenge"),
    _c("Kuwait", "Kuwait City", AS, "Arabic", "the Kuwaiti dinar"),
    _c("Kyrgyzstan", "Bishkek", AS, "Kyrgyz and Russian", "the Kyrgyz som"),
    _c("Laos", "Vientiane", AS, "Lao", "the kip"),
    _c("Lebanon", "Beirut", AS, "Arabic", "the Lebanese pound"),
    # Kuala Lumpur is the capital; the government's offices are in Putrajaya.
    _c("Malaysia", "Kuala Lumpur", AS, "Malay", "the ringgit"),
    _c("the Maldives", "Male", AS, "Dhivehi", "the rufiyaa"),
    _c("Mongolia", "Ulaanbaatar", AS, "Mongolian", "the tugrik"),
    _c("Myanmar", "Naypyidaw", AS, "Burmese", "the kyat", "Burma"),  # Yangon until 2006
    _c("Nepal", "Kathmandu", AS, "Nepali", "the Nepalese rupee"),
    _c("North Korea", "Pyongyang", AS, "Korean", "the North Korean won", "the DPRK"),
    _c("Oman", "Muscat", AS, "Arabic", "the Omani rial"),
    _c("Pakistan", "Islamabad", AS, "Urdu and English", "the Pakistani rupee"),
    # Palestine proclaims East Jerusalem its capital; its government sits in Ramallah, the city
    # given here. The Jordanian dinar is also used, in the West Bank.
    _c("Palestine", "Ramallah", AS, "Arabic", "the Israeli shekel", "the State of Palestine"),
    _c("the Philippines", "Manila", AS, "Filipino and English", "the Philippine peso"),
    _c("Qatar", "Doha", AS, "Arabic", "the Qatari riyal"),
    _c("Saudi Arabia", "Riyadh", AS, "Arabic", "the Saudi riyal"),
    _c("Singapore", "Singapore", AS, "English, Malay, Mandarin and Tamil",
       "the Singapore dollar"),  # a city-state
    # Sri Jayawardenepura Kotte is the official capital and seat of parliament; Colombo, next to
    # it, is the largest city and the commercial capital, and is often given instead.
    _c("Sri Lanka", "Sri Jayawardenepura Kotte", AS, "Sinhala and Tamil",
       "the Sri Lankan rupee"),
    _c("Syria", "Damascus", AS, "Arabic", "the Syrian pound"),
    _c("Taiwan", "Taipei", AS, "Mandarin", "the New Taiwan dollar"),
    _c("Tajikistan", "Dushanbe", AS, "Tajik", "the somoni"),
    _c("Timor-Leste", "Dili", AS, "Tetum and Portuguese", "the US dollar", "East Timor"),
    _c("Turkmenistan", "Ashgabat", AS, "Turkmen", "the Turkmen manat"),
    _c("the United Arab Emirates", "Abu Dhabi", AS, "Arabic", "the UAE dirham",
       "the UAE", "the Emirates"),
    _c("Uzbekistan", "Tashkent", AS, "Uzbek", "the Uzbek som"),
    _c("Vietnam", "Hanoi", AS, "Vietnamese", "the dong"),
    # Sanaa is the constitutional capital; the recognised government has sat in Aden since 2015.
    _c("Yemen", "Sanaa", AS, "Arabic", "the Yemeni rial"),
    # -- Africa ----------------------------------------------------------------------------------
    _c("Algeria", "Algiers", AF, "Arabic and Berber", "the Algerian dinar"),
    _c("Angola", "Luanda", AF, "Portuguese", "the kwanza"),
    # Porto-Novo is the official capital; the government sits in Cotonou, the largest city.
    _c("Benin", "Porto-Novo", AF, "French", "the West African CFA franc"),
    _c("Botswana", "Gaborone", AF, "English and Setswana", "the pula"),
    # Burkina Faso (2023), Mali (2023) and Niger (2025) made French a working language beside
    # their national ones; it is still the language of government.
    _c("Burkina Faso", "Ouagadougou", AF, "French", "the West African CFA franc"),
    # Gitega has been the capital since 2019; Bujumbura is the largest city.
    _c("Burundi", "Gitega", AF, "Kirundi, French and English", "the Burundian franc"),
    _c("Cameroon", "Yaounde", AF, "French and English", "the Central African CFA franc"),
    _c("Cape Verde", "Praia", AF, "Portuguese", "the Cape Verdean escudo", "Cabo Verde"),
    _c("the Central African Republic", "Bangui", AF, "French and Sango",
       "the Central African CFA franc"),
    _c("Chad", "N'Djamena", AF, "French and Arabic", "the Central African CFA franc"),
    _c("the Comoros", "Moroni", AF, "Comorian, Arabic and French", "the Comorian franc"),
    _c("the Democratic Republic of the Congo", "Kinshasa", AF, "French", "the Congolese franc",
       "DR Congo", "the DRC", "Congo-Kinshasa"),
    _c("Djibouti", "Djibouti City", AF, "French and Arabic", "the Djiboutian franc"),
    # Malabo, on Bioko island; a new capital, Ciudad de la Paz, is being built on the mainland.
    _c("Equatorial Guinea", "Malabo", AF, "Spanish, French and Portuguese",
       "the Central African CFA franc"),
    _c("Eritrea", "Asmara", AF, "Tigrinya, Arabic and English", "the nakfa"),
    # Mbabane is the executive capital; Lobamba is the royal and legislative one.
    _c("Eswatini", "Mbabane", AF, "Swazi and English", "the lilangeni", "Swaziland"),
    _c("Ethiopia", "Addis Ababa", AF, "Amharic", "the birr"),
    _c("Gabon", "Libreville", AF, "French", "the Central African CFA franc"),
    _c("the Gambia", "Banjul", AF, "English", "the dalasi"),
    _c("Ghana", "Accra", AF, "English", "the cedi"),
    _c("Guinea", "Conakry", AF, "French", "the Guinean franc"),
    _c("Guinea-Bissau", "Bissau", AF, "Portuguese", "the West African CFA franc"),
    # Yamoussoukro is the official capital; Abidjan, the largest city, holds most of government.
    _c("the Ivory Coast", "Yamoussoukro", AF, "French", "the West African CFA franc",
       "Cote d'Ivoire"),
    _c("Lesotho", "Maseru", AF, "Sesotho and English", "the loti"),
    _c("Liberia", "Monrovia", AF, "English", "the Liberian dollar"),
    _c("Libya", "Tripoli", AF, "Arabic", "the Libyan dinar"),
    _c("Madagascar", "Antananarivo", AF, "Malagasy and French", "the ariary"),
    _c("Malawi", "Lilongwe", AF, "English and Chichewa", "the Malawian kwacha"),
    _c("Mali", "Bamako", AF, "French and Bambara", "the West African CFA franc"),
    _c("Mauritania", "Nouakchott", AF, "Arabic", "the ouguiya"),
    _c("Mauritius", "Port Louis", AF, "Mauritian Creole, English and French",
       "the Mauritian rupee"),
    _c("Mozambique", "Maputo", AF, "Portuguese", "the metical"),
    _c("Namibia", "Windhoek", AF, "English", "the Namibian dollar"),
    _c("Niger", "Niamey", AF, "French and Hausa", "the West African CFA franc"),
    _c("the Republic of the Congo", "Brazzaville", AF, "French", "the Central African CFA franc",
       "Congo-Brazzaville"),
    _c("Rwanda", "Kigali", AF, "Kinyarwanda, English and French", "the Rwandan franc"),
    _c("Sao Tome and Principe", "Sao Tome", AF, "Portuguese", "the dobra", "Sao Tome"),
    _c("Senegal", "Dakar", AF, "French and Wolof", "the West African CFA franc"),
    _c("the Seychelles", "Victoria", AF, "Seychellois Creole, English and French",
       "the Seychellois rupee"),
    _c("Sierra Leone", "Freetown", AF, "English", "the leone"),
    _c("Somalia", "Mogadishu", AF, "Somali and Arabic", "the Somali shilling"),
    # Pretoria is the executive capital, the one usually given; parliament sits in Cape Town and
    # the supreme court of appeal in Bloemfontein. It has twelve official languages, the most
    # spoken of which are named.
    _c("South Africa", "Pretoria", AF, "Zulu, Xhosa, Afrikaans and English", "the rand"),
    _c("South Sudan", "Juba", AF, "English", "the South Sudanese pound"),
    # Khartoum; the government has worked from Port Sudan during the war that began in 2023.
    _c("Sudan", "Khartoum", AF, "Arabic and English", "the Sudanese pound"),
    # Dodoma is the official capital; Dar es Salaam is the largest city and holds many offices.
    _c("Tanzania", "Dodoma", AF, "Swahili and English", "the Tanzanian shilling"),
    _c("Togo", "Lome", AF, "French", "the West African CFA franc"),
    _c("Tunisia", "Tunis", AF, "Arabic", "the Tunisian dinar"),
    _c("Uganda", "Kampala", AF, "English and Swahili", "the Ugandan shilling"),
    _c("Zambia", "Lusaka", AF, "English", "the Zambian kwacha"),
    # Zimbabwe has its own currency (the ZiG, since 2024), but most payments are in US dollars.
    _c("Zimbabwe", "Harare", AF, "English, Shona and Ndebele", "the US dollar"),
    # -- North America (Central America and the Caribbean) ---------------------------------------
    _c("Antigua and Barbuda", "St. John's", NA, "English", "the East Caribbean dollar",
       "Antigua"),
    _c("the Bahamas", "Nassau", NA, "English", "the Bahamian dollar"),
    _c("Barbados", "Bridgetown", NA, "English", "the Barbadian dollar"),
    _c("Belize", "Belmopan", NA, "English", "the Belize dollar"),
    _c("Costa Rica", "San Jose", NA, "Spanish", "the Costa Rican colon"),
    _c("Cuba", "Havana", NA, "Spanish", "the Cuban peso"),
    _c("Dominica", "Roseau", NA, "English", "the East Caribbean dollar"),
    _c("the Dominican Republic", "Santo Domingo", NA, "Spanish", "the Dominican peso"),
    # El Salvador uses the US dollar; bitcoin stopped being legal tender in 2025.
    _c("El Salvador", "San Salvador", NA, "Spanish", "the US dollar"),
    _c("Grenada", "St. George's", NA, "English", "the East Caribbean dollar"),
    _c("Guatemala", "Guatemala City", NA, "Spanish", "the quetzal"),
    _c("Haiti", "Port-au-Prince", NA, "Haitian Creole and French", "the gourde"),
    _c("Honduras", "Tegucigalpa", NA, "Spanish", "the lempira"),
    _c("Jamaica", "Kingston", NA, "English", "the Jamaican dollar"),
    _c("Nicaragua", "Managua", NA, "Spanish", "the cordoba"),
    _c("Panama", "Panama City", NA, "Spanish", "the balboa and the US dollar"),
    _c("Saint Kitts and Nevis", "Basseterre", NA, "English", "the East Caribbean dollar",
       "St. Kitts and Nevis", "Saint Kitts", "St. Kitts"),
    _c("Saint Lucia", "Castries", NA, "English", "the East Caribbean dollar", "St. Lucia"),
    _c("Saint Vincent and the Grenadines", "Kingstown", NA, "English",
       "the East Caribbean dollar", "St. Vincent and the Grenadines", "Saint Vincent",
       "St. Vincent"),
    _c("Trinidad and Tobago", "Port of Spain", NA, "English", "the Trinidad and Tobago dollar",
       "Trinidad"),
    # -- South America ---------------------------------------------------------------------------
    # Sucre is the constitutional capital; the government and parliament sit in La Paz.
    _c("Bolivia", "Sucre", SA, "Spanish", "the boliviano"),
    _c("Chile", "Santiago", SA, "Spanish", "the Chilean peso"),
    _c("Colombia", "Bogota", SA, "Spanish", "the Colombian peso"),
    _c("Ecuador", "Quito", SA, "Spanish", "the US dollar"),
    _c("Guyana", "Georgetown", SA, "English", "the Guyanese dollar"),
    _c("Paraguay", "Asuncion", SA, "Spanish and Guarani", "the guarani"),
    _c("Peru", "Lima", SA, "Spanish", "the sol"),
    _c("Suriname", "Paramaribo", SA, "Dutch", "the Surinamese dollar"),
    _c("Uruguay", "Montevideo", SA, "Spanish", "the Uruguayan peso"),
    _c("Venezuela", "Caracas", SA, "Spanish", "the bolivar"),
    # -- Oceania ---------------------------------------------------------------------------------
    _c("Fiji", "Suva", OC, "English, Fijian and Hindi", "the Fijian dollar"),
    _c("Kiribati", "South Tarawa", OC, "Gilbertese and English", "the Australian dollar"),
    _c("the Marshall Islands", "Majuro", OC, "Marshallese and English", "the US dollar"),
    _c("Micronesia", "Palikir", OC, "English", "the US dollar",
       "the Federated States of Micronesia"),
    # Nauru has no official capital; its government sits in Yaren District.
    _c("Nauru", "Yaren", OC, "Nauruan and English", "the Australian dollar"),
    _c("New Zealand", "Wellington", OC, "English and Maori", "the New Zealand dollar"),
    _c("Palau", "Ngerulmud", OC, "Palauan and English", "the US dollar"),
    _c("Papua New Guinea", "Port Moresby", OC, "Tok Pisin, English and Hiri Motu", "the kina"),
    _c("Samoa", "Apia", OC, "Samoan and English", "the tala"),
    _c("the Solomon Islands", "Honiara", OC, "English", "the Solomon Islands dollar"),
    _c("Tonga", "Nuku'alofa", OC, "Tongan and English", "the pa'anga"),
    _c("Tuvalu", "Funafuti", OC, "Tuvaluan and English", "the Australian dollar"),
    _c("Vanuatu", "Port Vila", OC, "Bislama, English and French", "the vatu"),
)  # fmt: skip

# The four nations of the United Kingdom, asked after as countries of their own ("what's the
# capital of Scotland").
NATIONS: tuple[Country, ...] = (
    _c("England", "London", EU, "English", "the pound sterling"),
    _c("Scotland", "Edinburgh", EU, "English, Scots and Scottish Gaelic", "the pound sterling"),
    _c("Wales", "Cardiff", EU, "Welsh and English", "the pound sterling"),
    _c("Northern Ireland", "Belfast", EU, "English and Irish", "the pound sterling"),
)  # fmt: skip

ALL_COUNTRIES: tuple[Country, ...] = COUNTRIES + WORLD + NATIONS
