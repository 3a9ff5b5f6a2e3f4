//! IRIs of the vocabularies that ingest reads and writes.

pub const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
pub const RDFS_LABEL: &str = "http://www.w3.org/2000/01/rdf-schema#label";
pub const RDFS_COMMENT: &str = "http://www.w3.org/2000/01/rdf-schema#comment";
pub const RDFS_SUBCLASS_OF: &str = "http://www.w3.org/2000/01/rdf-schema#subClassOf";
pub const RDFS_SUBPROPERTY_OF: &str = "http://www.w3.org/2000/01/rdf-schema#subPropertyOf";
pub const XSD_BOOLEAN: &str = "http://www.w3.org/2001/XMLSchema#boolean";
pub const XSD_STRING: &str = "http://www.w3.org/2001/XMLSchema#string";

pub const OWL_CLASS: &str = "http://www.w3.org/2002/07/owl#Class";
pub const OWL_ONTOLOGY: &str = "http://www.w3.org/2002/07/owl#Ontology";
pub const OWL_OBJECT_PROPERTY: &str = "http://www.w3.org/2002/07/owl#ObjectProperty";
pub const OWL_DEPRECATED: &str = "http://www.w3.org/2002/07/owl#deprecated";
pub const OWL_VERSION_IRI: &str = "http://www.w3.org/2002/07/owl#versionIRI";
pub const OWL_VERSION_INFO: &str = "http://www.w3.org/2002/07/owl#versionInfo";

pub const SKOS: &str = "http://www.w3.org/2004/02/skos/core#";
pub const SKOS_CONCEPT: &str = "http://www.w3.org/2004/02/skos/core#Concept";
pub const SKOS_CONCEPT_SCHEME: &str = "http://www.w3.org/2004/02/skos/core#ConceptScheme";

pub const DCTERMS_MODIFIED: &str = "http://purl.org/dc/terms/modified";
pub const DCTERMS_IS_REPLACED_BY: &str = "http://purl.org/dc/terms/isReplacedBy";

pub const OBO: &str = "http://purl.obolibrary.org/obo/";
pub const IAO_DEFINITION: &str = "http://purl.obolibrary.org/obo/IAO_0000115";
pub const IAO_REPLACED_BY: &str = "http://purl.obolibrary.org/obo/IAO_0100001";

pub const OBO_IN_OWL: &str = "http://www.geneontology.org/formats/oboInOwl#";
pub const OIO_EXACT_SYNONYM: &str = "http://www.geneontology.org/formats/oboInOwl#hasExactSynonym";
pub const OIO_RELATED_SYNONYM: &str =
    "http://www.geneontology.org/formats/oboInOwl#hasRelatedSynonym";
pub const OIO_BROAD_SYNONYM: &str = "http://www.geneontology.org/formats/oboInOwl#hasBroadSynonym";
pub const OIO_NARROW_SYNONYM: &str =
    "http://www.geneontology.org/formats/oboInOwl#hasNarrowSynonym";
pub const OIO_DB_XREF: &str = "http://www.geneontology.org/formats/oboInOwl#hasDbXref";
pub const OIO_CONSIDER: &str = "http://www.geneontology.org/formats/oboInOwl#consider";
pub const OIO_REPLACED_BY: &str = "http://www.geneontology.org/formats/oboInOwl#replacedBy";
pub const OIO_ALT_ID: &str = "http://www.geneontology.org/formats/oboInOwl#hasAlternativeId";
pub const OIO_NAMESPACE: &str = "http://www.geneontology.org/formats/oboInOwl#hasOBONamespace";
pub const OIO_ID: &str = "http://www.geneontology.org/formats/oboInOwl#id";
pub const OIO_IN_SUBSET: &str = "http://www.geneontology.org/formats/oboInOwl#inSubset";
pub const OIO_CREATED_BY: &str = "http://www.geneontology.org/formats/oboInOwl#created_by";
pub const OIO_CREATION_DATE: &str = "http://www.geneontology.org/formats/oboInOwl#creation_date";
